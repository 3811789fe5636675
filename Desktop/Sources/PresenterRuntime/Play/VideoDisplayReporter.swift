import DesktopFiles
import ExternalDisplayKit
import Foundation

/// What the engine tells `play` about its displays, kept until the player takes it; the engine's diagnostics go to
/// standard error as `present`'s do. ``onChange`` wakes a live player's loop.
@MainActor
final class VideoDisplayReporter: DisplayCoordinatorDelegate {
    /// A display the engine attached, detached or laid out again.
    enum Change: Equatable {
        /// The engine gave the display a window.
        case attached(DisplayID)
        /// The display's window went: unplugged, handed back to the system, or replaced for a mode change.
        case detached(DisplayID, DetachReason)
        /// The display's window has a new layout (its mode changed).
        case laidOut(DisplayID)
    }

    private var changes: [Change] = []
    /// Called after each change is kept (a live player wakes its loop here; nothing is decided in the callback).
    var onChange: (() -> Void)?

    /// The changes since the last call, in order.
    func take() -> [Change] {
        defer { changes = [] }
        return changes
    }

    func externalDisplayDidAttach(_ attachment: DisplayAttachment) { keep(.attached(attachment.display.id)) }

    func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) { keep(.detached(display, reason)) }

    func externalDisplayDidChangeLayout(_ attachment: DisplayAttachment) { keep(.laidOut(attachment.display.id)) }

    func displayCoordinator(didReport diagnostic: Diagnostic) {
        StandardStreams.errorLine(PrintableText.line("extdisplay play: \(diagnostic)"))
    }

    private func keep(_ change: Change) {
        changes.append(change)
        onChange?()
    }
}
