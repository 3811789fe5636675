#if canImport(UIKit) && canImport(Observation)
import ExternalDisplayKit
import Foundation
import Observation

/// Content routing and privacy, as an Observation type SwiftUI views read directly: where each item the app
/// shows should go (an external display or the device), and whether private content must be redacted on the
/// device screen because it is captured or mirrored. The engine decides both; this only relays.
///
/// ```swift
/// @State private var presentation = ExternalDisplayPresentation()
///
/// var body: some View {
///     PhotoGrid { photo in presentation.show(photo.id) }
///         .redacted(reason: presentation.isRedacting ? .privacy : [])
///     // presentation.destination(of: photo.id) == .device → push the detail view on the device
/// }
/// ```
@available(iOS 17.0, tvOS 17.0, *)
@Observable
@MainActor
public final class ExternalDisplayPresentation {
    /// Where each shown item goes, by item id.
    public private(set) var routes: [String: RouteDestination] = [:]
    /// Whether private content must be hidden on the device screen now.
    public private(set) var isRedacting = false

    @ObservationIgnored private let controller: ExternalDisplayController
    @ObservationIgnored private var token: UUID?

    /// Relays the routing and redaction decisions of `controller`'s engine.
    public init(controller: ExternalDisplayController = .shared) {
        self.controller = controller
        token = controller.addListener { [weak self] notification in self?.receive(notification) }
    }

    /// Where an item goes (the device until the engine routes it).
    public func destination(of item: String) -> RouteDestination { routes[item] ?? .device }

    /// Shows an item: on an external display where the engine allows (never a private one), else on the
    /// device. Pin it to one display with `display`.
    public func show(_ item: String, isPrivate: Bool = false, on display: DisplayID? = nil) {
        controller.coordinator?.send(.show(item: item, isPrivate: isPrivate, display: display))
    }

    /// Stops showing an item.
    public func dismiss(_ item: String) {
        routes[item] = nil
        controller.coordinator?.send(.dismiss(item: item))
    }

    /// Stops relaying.
    public func invalidate() {
        if let token { controller.removeListener(token) }
        token = nil
    }

    private func receive(_ notification: AppNotification) {
        switch notification {
        case .route(let item, let destination): routes[item] = destination
        case .redact(let on): isRedacting = on
        default: break
        }
    }
}
#endif
