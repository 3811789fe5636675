import ExternalDisplayUIKit
import SwiftUI

@main
struct PresenterApp: App {
    @UIApplicationDelegateAdaptor(AppDelegate.self) private var appDelegate

    init() {
        // Opt-in: only when the user turned on "Record displays" for a bug report.
        if UserDefaults.standard.bool(forKey: "recordDisplays") {
            ExternalDisplayController.shared.startRecording()
        }
    }

    var body: some Scene {
        WindowGroup {
            PhotoList().externalDisplay { _ in SelectedPhotoView() }
        }
    }
}

struct ShareRecordingButton: View {
    @State private var file: URL?

    var body: some View {
        Button("Stop and share recording") {
            file = try? ExternalDisplayController.shared.finishRecording(name: "presenter-displays")
        }
        // Present `file` in a share sheet (UIActivityViewController, or ShareLink on iOS 16 and later).
    }
}
