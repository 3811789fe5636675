import ExternalDisplayKit
import ExternalDisplayUIKit
import Foundation
import SwiftUI

/// A photo in the sample library.
struct Photo: Identifiable, Hashable, Sendable {
    let id: String
    let title: String
    let isPrivate: Bool
}

/// The browser's state. Where a selected photo appears is the package's decision (the photo-browser
/// pattern): on the external display when one shows the app's content, on the device otherwise — and back on
/// the device when the display goes away. Private photos never leave the device.
@MainActor
final class PhotoLibrary: ObservableObject {
    /// The app's one library.
    static let shared = PhotoLibrary()

    @Published var photos: [Photo] = [
        Photo(id: "harbour", title: "Harbour at dawn", isPrivate: false),
        Photo(id: "summit", title: "Summit ridge", isPrivate: false),
        Photo(id: "passport", title: "Passport scan", isPrivate: true),
        Photo(id: "market", title: "Night market", isPrivate: false),
    ]
    /// The photo on the external display.
    @Published private(set) var onExternalDisplay: Photo?
    /// The photo opened on the device.
    @Published private(set) var onDevice: Photo?
    /// Whether private photos must be hidden on the device (its screen is being recorded or mirrored).
    @Published private(set) var redactsPrivatePhotos = false
    /// Whether the external display shows the app's content (a Settings-style switch).
    @Published var usesExternalDisplay = true {
        didSet { ExternalDisplayController.shared.isExternalContentEnabled = usesExternalDisplay }
    }

    private var router: ContentRouter<Photo>?
    private var selected: Photo?

    /// Shows a photo where it belongs.
    func select(_ photo: Photo) {
        let router = self.router ?? makeRouter()
        if let selected, selected != photo { router?.dismiss(selected) }
        selected = photo
        router?.show(photo, privacy: photo.isPrivate ? .private : .public)
    }

    /// Closes the photo opened on the device.
    func closeDevicePhoto() {
        if let onDevice { router?.dismiss(onDevice) }
        onDevice = nil
        selected = nil
    }

    private func makeRouter() -> ContentRouter<Photo>? {
        let router: ContentRouter<Photo>? = ExternalDisplayController.shared.makeContentRouter(key: \.id)
        router?.onRoute = { [weak self] photo, destination in
            guard let self else { return }
            switch destination {
            case .device:
                onDevice = photo
                if onExternalDisplay == photo { onExternalDisplay = nil }
            case .display:
                onExternalDisplay = photo
                if onDevice == photo { onDevice = nil }
            }
        }
        router?.onRedact = { [weak self] redacts in self?.redactsPrivatePhotos = redacts }
        self.router = router
        return router
    }
}
