/// Receives what the engine tells the app, on the main actor. Every method has an empty default, so an app
/// implements only what it needs.
///
/// ```swift
/// final class AppDisplays: DisplayCoordinatorDelegate {
///     func externalDisplayDidAttach(_ attachment: DisplayAttachment) { showSlides(in: attachment.layout.safeFrame) }
///     func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) { pushDetailOnDevice() }
/// }
/// ```
@MainActor
public protocol DisplayCoordinatorDelegate: AnyObject {
    /// A display has the app's window now: fill it.
    func externalDisplayDidAttach(_ attachment: DisplayAttachment)
    /// A display lost the app's window: restore the device UI it would have without it.
    func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason)
    /// A display's layout changed (mode change): lay its content out again.
    func externalDisplayDidChangeLayout(_ attachment: DisplayAttachment)
    /// Any notification, including routing and redaction; called after the specific method.
    func displayCoordinator(didNotify notification: AppNotification)
    /// A problem the engine survived or a command the platform could not carry out.
    func displayCoordinator(didReport diagnostic: Diagnostic)
}

extension DisplayCoordinatorDelegate {
    /// Does nothing.
    public func externalDisplayDidAttach(_ attachment: DisplayAttachment) {}
    /// Does nothing.
    public func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) {}
    /// Does nothing.
    public func externalDisplayDidChangeLayout(_ attachment: DisplayAttachment) {}
    /// Does nothing.
    public func displayCoordinator(didNotify notification: AppNotification) {}
    /// Does nothing.
    public func displayCoordinator(didReport diagnostic: Diagnostic) {}
}
