import DesktopFiles
import ExternalDisplayKit
import Foundation

/// What the engine tells a headless `play` about its displays, kept until the player takes it as the playback
/// core's events; the engine's diagnostics go to standard error as `present`'s do.
@MainActor
final class VideoDisplayReporter: DisplayCoordinatorDelegate {
    /// A display the engine attached or detached.
    enum Change: Equatable {
        case attached(DisplayID)
        case detached(DisplayID)
    }

    private var changes: [Change] = []

    /// The changes since the last call, in order.
    func take() -> [Change] {
        defer { changes = [] }
        return changes
    }

    func externalDisplayDidAttach(_ attachment: DisplayAttachment) { changes.append(.attached(attachment.display.id)) }

    func externalDisplayDidDetach(_ display: DisplayID, reason: DetachReason) { changes.append(.detached(display)) }

    func externalDisplayDidChangeLayout(_ attachment: DisplayAttachment) {}

    func displayCoordinator(didReport diagnostic: Diagnostic) {
        StandardStreams.errorLine(PrintableText.line("extdisplay play: \(diagnostic)"))
    }
}
