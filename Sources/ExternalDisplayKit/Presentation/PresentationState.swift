/// The engine's content-routing and privacy state: which items the app shows and where, whether the device
/// screen is captured, its orientation, and whether the app left it empty.
public struct PresentationState: Hashable, Sendable {
    /// One item the app shows.
    public struct Item: Hashable, Sendable {
        /// The app's key for it.
        public var id: String
        /// Private items never reach an external display.
        public var isPrivate: Bool
        /// The display the app pinned it to, if any.
        public var pinnedDisplay: DisplayID?
        /// Where it is now.
        public var route: RouteDestination
    }

    /// Items shown and not dismissed, in the order they were first shown.
    public var items: [Item] = []
    /// Whether the device screen is being captured (recorded, shared).
    public var isCaptured = false
    /// The device's orientation.
    public var orientation: DeviceOrientation = .portrait
    /// Whether the app's device screen is empty.
    public var isDeviceContentEmpty = false
    /// Whether the app has been told to redact private content on the device.
    public var isRedacting = false
    /// Whether the empty-device diagnostic has been given for the current stretch.
    var warnedAboutEmptyDevice = false

    /// Creates the initial state.
    public init() {}

    /// Where each item is now, by id.
    public var routes: [String: RouteDestination] {
        Dictionary(items.map { ($0.id, $0.route) }, uniquingKeysWith: { _, last in last })
    }
}

/// What happens to an item shown on the device when an external display attaches.
public enum RoutingPolicy: String, Sendable, CaseIterable, Codable {
    /// The item moves out to the display and the device pops back to its browsing UI (the default: the
    /// photo-browser pattern).
    case moveToDisplay
    /// The item stays on the device; items shown from now on go to the display.
    case stayOnDevice
}

extension DisplayEngine {
    mutating func applyPresentation(_ event: DisplayEvent, _ context: inout BatchContext) {
        switch event {
        case .show(let id, let isPrivate, let pinned):
            if let pinned, !knownDisplays.contains(pinned), displays[pinned] == nil {
                context.diagnose(.warning, "show \(id) pinned to \(pinned), a display never connected; it shows on "
                                     + "the device until \(pinned) attaches")
            }
            if let index = presentation.items.firstIndex(where: { $0.id == id }) {
                presentation.items[index].isPrivate = isPrivate
                presentation.items[index].pinnedDisplay = pinned
                context.reshown.insert(id)
            } else {
                presentation.items.append(.init(id: id, isPrivate: isPrivate, pinnedDisplay: pinned, route: .device))
                context.newlyShown.insert(id)
            }
        case .dismiss(let id):
            guard presentation.items.contains(where: { $0.id == id }) else {
                return context.diagnose(.warning, "dismiss of \(id), which is not shown; ignored")
            }
            presentation.items.removeAll { $0.id == id }
        case .capture(let on):
            presentation.isCaptured = on
        case .rotate(let orientation):
            presentation.orientation = orientation
        case .deviceContent(let empty):
            presentation.isDeviceContentEmpty = empty
            if !empty { presentation.warnedAboutEmptyDevice = false }
        default:
            break
        }
    }

    /// Displays that can take routed content: attached (with the app's window), in connection order.
    var routableDisplays: [DisplayID] { connectionOrder.filter { windows[$0] != nil } }

    /// Where an item goes now: private items stay on the device; pinned items follow their display; an item
    /// whose display went away comes back to the device (and stays there); a newly shown item goes to the
    /// first attached display; an item on the device moves out when a display attaches, if the policy says so.
    func destination(for item: PresentationState.Item, newlyShown: Bool, attachedNow: Set<DisplayID>) -> RouteDestination {
        guard !item.isPrivate else { return .device }
        let available = routableDisplays
        if let pinned = item.pinnedDisplay {
            return available.contains(pinned) ? .display(pinned) : .device
        }
        if case .display(let current) = item.route {
            return available.contains(current) ? item.route : .device
        }
        guard let first = available.first else { return .device }
        if newlyShown || (!attachedNow.isEmpty && configuration.routing == .moveToDisplay) { return .display(first) }
        return .device
    }

    mutating func reconcilePresentation(_ context: inout BatchContext) {
        // Content on a display whose window went away comes back to the device at once, even if the display
        // is back in the same batch: the app got didDetach and must restore the device's state.
        for index in presentation.items.indices {
            guard case .display(let id) = presentation.items[index].route, context.detached.contains(id) else { continue }
            presentation.items[index].route = .device
            context.notify(.route(item: presentation.items[index].id, to: .device))
        }
        for index in presentation.items.indices {
            let item = presentation.items[index]
            let fresh = context.newlyShown.contains(item.id) || context.reshown.contains(item.id)
            let target = destination(for: item, newlyShown: fresh, attachedNow: context.attached)
            if target != item.route || context.newlyShown.contains(item.id) {
                presentation.items[index].route = target
                context.notify(.route(item: item.id, to: target))
            }
        }
        let redact = presentation.isCaptured || !mirroredDisplays.isEmpty
        if redact != presentation.isRedacting {
            presentation.isRedacting = redact
            context.notify(.redact(redact))
        }
        let showing = displaysShowingContent
        if presentation.isDeviceContentEmpty, !showing.isEmpty, !presentation.warnedAboutEmptyDevice {
            presentation.warnedAboutEmptyDevice = true
            context.diagnose(.warning, "the device screen is empty while \(showing.map(\.rawValue).joined(separator: ", ")) "
                                 + "shows the app's content; keep some UI on the device, where the user's hands are")
        }
    }
}
