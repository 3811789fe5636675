#if canImport(Observation)
import Observation
#endif

/// Whether an item may appear on a public screen.
public enum ContentPrivacy: String, Hashable, Sendable, Codable {
    /// Fine on a projector in a room full of people.
    case `public`
    /// For the user's eyes only: never routed to an external display, redacted while the device screen is
    /// captured or mirrored.
    case `private`
}

/// The photo-browser pattern for any item type: the app says "show this", and the router says where — on an
/// external display that shows the app's content (the device keeps its browsing UI), or on the device. When
/// that display goes away the item comes back to the device, as if no display had ever been attached.
///
/// Decisions are the engine's (tested on every platform); the router turns them into the app's own items.
/// Observable: SwiftUI views that read ``destinations`` or ``redactsPrivateContent`` update by themselves.
///
/// ```swift
/// let router = ContentRouter<Photo>(coordinator: coordinator, key: \.filename)
/// router.onRoute = { photo, destination in
///     switch destination {
///     case .device: navigation.push(PhotoView(photo))
///     case .display: navigation.popToGrid(); externalPhotoView.show(photo)
///     }
/// }
/// router.show(selectedPhoto)
/// ```
@MainActor
public final class ContentRouter<Item: Hashable & Sendable> {
    /// Called when an item's destination changes (and when it is first routed).
    public var onRoute: (@MainActor (Item, RouteDestination) -> Void)?
    /// Called when the app must start (true) or may stop (false) redacting private content on the device.
    public var onRedact: (@MainActor (Bool) -> Void)?

    private var destinationsStorage: [Item: RouteDestination] = [:]
    private var redactsStorage = false
    private var items: [String: Item] = [:]
    private let key: (Item) -> String
    private let send: @MainActor (DisplayEvent) -> Void
    #if canImport(Observation)
    private let observation = ObservationSupport()
    #endif

    /// Creates a router driving a coordinator; `key` names each item uniquely and stably.
    public init<Platform: DisplayPlatform>(coordinator: DisplayCoordinator<Platform>, key: @escaping (Item) -> String) {
        self.key = key
        self.send = { [weak coordinator] event in coordinator?.send(event) }
        coordinator.observeNotifications { [weak self] notification in self?.receive(notification) }
    }

    /// Where each shown item is now.
    public var destinations: [Item: RouteDestination] {
        #if canImport(Observation)
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) { observation.access(self, \.destinations) }
        #endif
        return destinationsStorage
    }

    /// Whether private content on the device must be redacted now.
    public var redactsPrivateContent: Bool {
        #if canImport(Observation)
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) { observation.access(self, \.redactsPrivateContent) }
        #endif
        return redactsStorage
    }

    /// Shows an item: on the first attached display (or `display`, if given and attached) unless it is private,
    /// else on the device.
    public func show(_ item: Item, privacy: ContentPrivacy = .public, on display: DisplayID? = nil) {
        items[key(item)] = item
        send(.show(item: key(item), isPrivate: privacy == .private, display: display))
    }

    /// Stops showing an item.
    public func dismiss(_ item: Item) {
        send(.dismiss(item: key(item)))
        items[key(item)] = nil
        mutate(\.destinations) { destinationsStorage[item] = nil }
    }

    /// Where an item is now, if it is shown.
    public func destination(of item: Item) -> RouteDestination? { destinations[item] }

    private func receive(_ notification: AppNotification) {
        switch notification {
        case .route(let id, let destination):
            guard let item = items[id] else { return }
            mutate(\.destinations) { destinationsStorage[item] = destination }
            onRoute?(item, destination)
        case .redact(let on):
            mutate(\.redactsPrivateContent) { redactsStorage = on }
            onRedact?(on)
        default:
            break
        }
    }

    private func mutate<Value>(_ keyPath: KeyPath<ContentRouter, Value>, _ change: () -> Void) {
        #if canImport(Observation)
        if #available(iOS 17, macOS 14, tvOS 17, watchOS 10, *) {
            observation.willSet(self, keyPath)
            change()
            observation.didSet(self, keyPath)
            return
        }
        #endif
        change()
    }
}

extension ContentRouter where Item: Identifiable, Item.ID: CustomStringConvertible {
    /// Creates a router for identifiable items, keyed by their ids.
    public convenience init<Platform: DisplayPlatform>(coordinator: DisplayCoordinator<Platform>) {
        self.init(coordinator: coordinator, key: { $0.id.description })
    }
}

#if canImport(Observation)
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
extension ContentRouter: Observable {}
#endif
