import ExternalDisplayUIKit
import UIKit

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, configurationForConnecting session: UISceneSession,
                     options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        .externalDisplay(for: session) ?? UISceneConfiguration(name: nil, sessionRole: session.role)
    }
}
