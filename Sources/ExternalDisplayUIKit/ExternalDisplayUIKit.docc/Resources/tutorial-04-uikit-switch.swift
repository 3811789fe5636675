import ExternalDisplayUIKit
import UIKit

final class SettingsViewController: UIViewController {
    private let externalSwitch = UISwitch()

    override func viewDidLoad() {
        super.viewDidLoad()
        externalSwitch.isOn = ExternalDisplayController.shared.isExternalContentEnabled
        externalSwitch.addTarget(self, action: #selector(switchChanged), for: .valueChanged)
        view.addSubview(externalSwitch)
    }

    @objc private func switchChanged() {
        ExternalDisplayController.shared.isExternalContentEnabled = externalSwitch.isOn
    }
}
