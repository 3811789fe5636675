import ExternalDisplayKit
import ExternalDisplayUIKit
import SwiftUI

/// The device's screen: the list of photos, the external-display switch, and the photo opened here when no
/// display shows it. The device never goes blank while the TV shows a photo. (Main-actor isolated in
/// words: SDKs before iOS 18 do not isolate `View` itself.)
@MainActor
struct PhotoBrowserView: View {
    @ObservedObject private var library = PhotoLibrary.shared

    var body: some View {
        NavigationView {
            VStack(alignment: .leading) {
                HStack {
                    Toggle("Use external display", isOn: $library.usesExternalDisplay)
                    RoutePicker(prioritizesVideoDevices: true)
                }
                .padding()
                RecordingControls().padding()
                List {
                    ForEach(library.photos) { photo in
                        Button(photo.title) { library.select(photo) }
                    }
                }
                if let photo = library.onDevice {
                    PhotoView(photo: photo, isRedacted: photo.isPrivate && library.redactsPrivatePhotos)
                    Button("Close") { library.closeDevicePhoto() }
                }
            }
            .navigationBarTitle("Photos")
        }
        .externalDisplay { _ in
            ExternalPhotoView(library: library)
        } placeholder: {
            Text("Photo Presenter").font(.largeTitle).foregroundColor(.white)
        }
    }
}

/// A photo on the device.
struct PhotoView: View {
    let photo: Photo
    let isRedacted: Bool

    var body: some View {
        VStack {
            if isRedacted {
                Text("Hidden while the screen is shared").font(.headline)
            } else {
                Image(systemName: "photo").resizable().aspectRatio(contentMode: .fit)
                Text(photo.title).font(.headline)
            }
        }
        .padding()
    }
}
