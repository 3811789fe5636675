import ExternalDisplayKit
import ExternalDisplayUIKit
import SwiftUI

/// What the TV shows: the selected photo filling the screen, its caption inside the overscan-safe area, no
/// controls (nobody can touch a TV). Private photos never go there.
struct ExternalPhotoView: View {
    @ObservedObject var library: PhotoLibrary
    @Environment(\.externalDisplay) private var display
    @Environment(\.horizontalSizeClass) private var sizeClass

    var body: some View {
        ZStack {
            Color.black
            if let photo = library.selected, !photo.isPrivate {
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
