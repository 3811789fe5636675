/// The engine's content-routing and privacy state.
public struct PresentationState: Hashable, Sendable {
    /// Whether the device screen is being captured (recorded, shared).
    public var isCaptured = false
    /// The device's orientation.
    public var orientation: DeviceOrientation = .portrait
    /// Whether the app's device screen is empty.
    public var isDeviceContentEmpty = false

    /// Creates the initial state.
    public init() {}
}

extension DisplayEngine {
    mutating func applyPresentation(_ event: DisplayEvent, _ context: inout BatchContext) {
        switch event {
        case .capture(let on): presentation.isCaptured = on
        case .rotate(let orientation):
            presentation.orientation = orientation
            context.rotated = true
        case .deviceContent(let empty): presentation.isDeviceContentEmpty = empty
        default: break
        }
    }

    mutating func reconcilePresentation(_ context: inout BatchContext) {}
}
