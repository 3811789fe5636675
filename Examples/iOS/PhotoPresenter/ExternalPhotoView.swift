import ExternalDisplayKit
import ExternalDisplayUIKit
import SwiftUI

/// What the TV shows: the routed photo filling the screen with its caption inside the overscan-safe area, and
/// no controls (nobody can touch a TV). Text scales with the display's size class.
struct ExternalPhotoView: View {
    @ObservedObject var library: PhotoLibrary
    @Environment(\.externalDisplay) private var display
    @Environment(\.horizontalSizeClass) private var sizeClass

    var body: some View {
        ZStack {
            Color.black
            if let photo = library.onExternalDisplay {
                VStack {
                    Image(systemName: "photo").resizable().aspectRatio(contentMode: .fit)
                    Text(photo.title).font(sizeClass == .compact ? .title : .largeTitle).foregroundColor(.white)
                }
                .padding(24)
            } else {
                Text(display?.display.name ?? "").font(.title).foregroundColor(.gray)
            }
        }
    }
}
