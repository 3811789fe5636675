import ExternalDisplayUIKit
import Foundation
import SwiftUI

/// A photo in the sample library.
struct Photo: Identifiable, Hashable {
    let id: String
    let title: String
    let isPrivate: Bool
}

/// The browser's state: the photos and the one selected.
@MainActor
final class PhotoLibrary: ObservableObject {
    @Published var photos: [Photo] = [
        Photo(id: "harbour", title: "Harbour at dawn", isPrivate: false),
        Photo(id: "summit", title: "Summit ridge", isPrivate: false),
        Photo(id: "passport", title: "Passport scan", isPrivate: true),
        Photo(id: "market", title: "Night market", isPrivate: false),
    ]
    /// The photo shown on the external display (or pushed on the device when there is none).
    @Published var selected: Photo?
    /// Whether the external display shows the app's content (a Settings-style switch).
    @Published var usesExternalDisplay = true {
        didSet { ExternalDisplayController.shared.isExternalContentEnabled = usesExternalDisplay }
    }
}
