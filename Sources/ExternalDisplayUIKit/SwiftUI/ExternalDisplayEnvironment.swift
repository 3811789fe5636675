#if canImport(UIKit) && canImport(SwiftUI)
import ExternalDisplayKit
import SwiftUI

private struct ExternalDisplayKey: EnvironmentKey {
    static var defaultValue: DisplayAttachment? { nil }
}

extension EnvironmentValues {
    /// The external display a view is shown on — the display, its layout and traits — or `nil` on the
    /// device.
    ///
    /// ```swift
    /// struct Slide: View {
    ///     @Environment(\.externalDisplay) private var display
    ///     var body: some View { Text(display?.display.name ?? "On device") }
    /// }
    /// ```
    public var externalDisplay: DisplayAttachment? {
        get { self[ExternalDisplayKey.self] }
        set { self[ExternalDisplayKey.self] = newValue }
    }

    /// The part of the external window the viewer sees in full, in points (the whole window except under
    /// the `none` overscan compensation); `.zero` on the device.
    ///
    /// ```swift
    /// @Environment(\.externalDisplaySafeFrame) private var safeFrame
    /// ```
    public var externalDisplaySafeFrame: CGRect {
        guard let frame = externalDisplay?.layout.safeFrame else { return .zero }
        return CGRect(x: frame.x, y: frame.y, width: frame.width, height: frame.height)
    }
}

extension UserInterfaceSizeClass {
    /// SwiftUI's size class for the engine's (computed from the external window's bounds, never from the
    /// device).
    public init(_ sizeClass: DisplayTraits.SizeClass) {
        switch sizeClass {
        case .compact: self = .compact
        case .regular: self = .regular
        }
    }
}

/// One external display's attachment, published for the SwiftUI content on it (works from iOS 13).
@MainActor
final class ExternalDisplayModel: ObservableObject {
    @Published var attachment: DisplayAttachment
    init(_ attachment: DisplayAttachment) { self.attachment = attachment }
}

/// The root of an external window's SwiftUI content: puts the display, its safe frame and its size classes
/// in the environment and keeps them current across mode changes.
struct ExternalDisplayRoot<Content: View>: View {
    @ObservedObject var model: ExternalDisplayModel
    let content: (DisplayAttachment) -> Content

    var body: some View {
        content(model.attachment)
            .environment(\.externalDisplay, model.attachment)
            .environment(\.horizontalSizeClass, UserInterfaceSizeClass(model.attachment.traits.horizontalSizeClass))
            .environment(\.verticalSizeClass, UserInterfaceSizeClass(model.attachment.traits.verticalSizeClass))
    }
}
#endif
