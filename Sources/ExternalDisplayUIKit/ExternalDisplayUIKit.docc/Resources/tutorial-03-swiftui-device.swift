import ExternalDisplayKit
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

struct PhotoList: View {
    @ObservedObject var library = PhotoLibrary.shared

    var body: some View {
        List(library.photos) { photo in
            Button(photo.title) { library.select(photo) }
        }
        // No display shows it: the device opens the photo itself.
        .sheet(item: $library.onDevice) { photo in PhotoView(photo: photo) }
    }
}
