import ExternalDisplayUIKit
import UIKit

final class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions options: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        ExternalDisplayController.shared.start { attachment in
            SlideViewController(safeFrame: attachment.layout.safeFrame)
        }
        return true
    }

    func application(_ application: UIApplication, configurationForConnecting session: UISceneSession,
                     options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        .externalDisplay(for: session) ?? UISceneConfiguration(name: "Default Configuration", sessionRole: session.role)
    }
}
