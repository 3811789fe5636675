import ExternalDisplayKit
import ExternalDisplayUIKit
import SwiftUI

/// The device's screen: the list of photos and the external-display switch. The device never goes blank:
/// with a display attached it keeps the list and shows the selection on the display; without one, selecting
/// opens the photo here.
struct PhotoBrowserView: View {
    @ObservedObject private var library = PhotoLibrary.shared
    @State private var hasExternalDisplay = false

    var body: some View {
        NavigationView {
            VStack(alignment: .leading) {
                Toggle("Use external display", isOn: $library.usesExternalDisplay)
                    .padding()
                List {
                    ForEach(library.photos) { photo in
                        Button(photo.title) { select(photo) }
                    }
                }
                if let selected = library.selected, !hasExternalDisplay {
                    PhotoView(photo: selected)
                }
            }
            .navigationBarTitle("Photos")
        }
        .externalDisplay { _ in
            ExternalPhotoView(library: library)
        } placeholder: {
            Text("Photo Presenter").font(.largeTitle).foregroundColor(.white)
        }
        .onAppear(perform: watchDisplays)
    }

    private func select(_ photo: Photo) {
        library.selected = photo
    }

    /// Follows attach and detach so that, when the display goes away, the selected photo opens on the device
    /// — the state the app would have been in had no display been connected.
    private func watchDisplays() {
        let controller = ExternalDisplayController.shared
        hasExternalDisplay = !controller.attachments.isEmpty
        controller.addListener { notification in
            switch notification {
            case .didAttach: hasExternalDisplay = true
            case .didDetach: hasExternalDisplay = !controller.attachments.isEmpty
            default: break
            }
        }
    }
}

extension PhotoLibrary {
    /// The app's one library.
    static let shared = PhotoLibrary()
}

/// A photo on the device.
struct PhotoView: View {
    let photo: Photo

    var body: some View {
        VStack {
            Image(systemName: "photo").resizable().aspectRatio(contentMode: .fit)
            Text(photo.title).font(.headline)
        }
        .padding()
    }
}
