import Foundation

/// A window of one solid colour from a program that is not ours — GStreamer's `waylandsink` in a
/// `gst-launch-1.0` of its own (`videotestsrc pattern=solid-color`) — for the tests that cover another window
/// with it. Its size is the video's; a compositor places it (and gives it the focus, as any new window). Its
/// title is empty (waylandsink sets none). Killed with ``stop()`` or at deinit.
public final class CoverWindow: @unchecked Sendable {
    private let child: ChildProcess
    /// The colour, red, green, blue.
    public let colour: (r: UInt8, g: UInt8, b: UInt8)

    /// Opens a `width`×`height` window of `colour` (fullscreen on the compositor's choice of output with
    /// `fullscreen`) on the Wayland compositor of `environment`.
    public init(width: Int, height: Int, colour: (r: UInt8, g: UInt8, b: UInt8), fullscreen: Bool = false,
                environment: [String: String?]) throws {
        self.colour = colour
        let argb = String(format: "0xff%02x%02x%02x", colour.r, colour.g, colour.b)
        child = try ChildProcess("/usr/bin/gst-launch-1.0", [
            "-q", "videotestsrc", "pattern=solid-color", "foreground-color=\(argb)", "!",
            "video/x-raw,width=\(width),height=\(height),framerate=5/1", "!", "waylandsink", "fullscreen=\(fullscreen)"],
            environment: environment)
    }

    /// What it said, for failure messages.
    public var stderr: String { child.stderr }

    /// Whether it still runs.
    public var isRunning: Bool { !child.hasEnded }

    /// Closes the window (also at deinit).
    public func stop() {
        child.signal(SIGKILL)
        _ = child.wait()
    }

    deinit { stop() }
}
