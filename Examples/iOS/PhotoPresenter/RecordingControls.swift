import ExternalDisplayUIKit
import SwiftUI
import UIKit

/// "Record displays" for bug reports: while on, the package records what the TV or projector does (connects,
/// modes, overscan, the app going to the background, capture, the app's own requests); off writes the
/// recording as a scenario file and offers it in the share sheet. A developer replays the file with
/// `extdisplay simulate recording.json` on any machine. (Main-actor isolated in words: SDKs before iOS 18 do not
/// isolate `View` itself.)
@MainActor
struct RecordingControls: View {
    @State private var isRecording = false
    @State private var recording: RecordingFile?

    var body: some View {
        Button(isRecording ? "Stop and share recording" : "Record displays") { toggle() }
            .sheet(item: $recording) { file in ShareSheet(items: [file.url]) }
    }

    private func toggle() {
        let controller = ExternalDisplayController.shared
        if isRecording {
            isRecording = false
            if let url = try? controller.finishRecording(name: "photo-presenter-displays") {
                recording = RecordingFile(url: url)
            }
        } else {
            controller.startRecording()
            isRecording = true
        }
    }
}

/// A written recording, for the share sheet.
struct RecordingFile: Identifiable {
    let url: URL
    var id: URL { url }
}

/// The system share sheet for some items.
struct ShareSheet: UIViewControllerRepresentable {
    let items: [Any]

    func makeUIViewController(context: Context) -> UIActivityViewController {
        UIActivityViewController(activityItems: items, applicationActivities: nil)
    }

    func updateUIViewController(_ controller: UIActivityViewController, context: Context) {}
}
