import ExternalDisplayUIKit
import SwiftUI

@main
struct PresenterApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

    var body: some Scene {
        WindowGroup {
            PhotoList()
                .externalDisplay { attachment in
                    SelectedPhotoView()
                        .padding(.horizontal, CGFloat(attachment.layout.safeFrame.x))
                } placeholder: {
                    Text("Presenter").font(.largeTitle)
                }
        }
    }
}
