import ExternalDisplayKit
import ExternalDisplayUIKit
import SwiftUI
import UIKit

/// A photo browser: pick a photo on the device and it fills the TV or projector; without one, the photo opens
/// on the device instead. No Info.plist editing: the external scene configuration comes from the app delegate.
@main
@MainActor
struct PhotoPresenterApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup {
            PhotoBrowserView()
        }
    }
}

final class AppDelegate: NSObject, UIApplicationDelegate {
    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession,
                     options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        // External displays (either role, iOS 13 to 27) get the package's scene delegate; everything else —
        // including Stage Manager windows on a monitor — keeps the app's normal configuration.
        .externalDisplay(for: connectingSceneSession)
            ?? UISceneConfiguration(name: nil, sessionRole: connectingSceneSession.role)
    }
}
