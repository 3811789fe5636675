import ExternalDisplayKit

/// One UIKit call the platform makes for a `DisplayCommand`, as a plain value.
///
/// ``WindowOperation/plan(for:path:)`` turns each engine command into the ordered list of these; the UIKit
/// platform carries them out one by one with a `switch` and nothing else. Keeping the list here makes the
/// order testable without UIKit: a mode is set before the window is associated with the screen, windows are
/// shown with `isHidden = false`, and no operation ever makes a window key.
public enum WindowOperation: Hashable, Sendable {
    /// `screen.currentMode = availableModes[i]` for the mode of this size and pixel aspect ratio.
    case setScreenMode(DisplayMode)
    /// `screen.overscanCompensation = UIScreen.OverscanCompensation(rawValue:)`.
    case setOverscanCompensation(OverscanCompensation)
    /// `UIWindow(windowScene:)` on the display's external scene (scenes path).
    case createWindowInScene
    /// `UIWindow(frame:)` (screens path); associated with the screen by ``assignScreen``.
    case createWindow
    /// `window.screen = screen` (screens path only, after the mode and compensation are set).
    case assignScreen
    /// `window.frame = …` in points.
    case setFrame(Rect)
    /// `rootViewController.additionalSafeAreaInsets = …`: the overscan safe frame as insets of the frame.
    case setSafeAreaInsets(top: Int, left: Int, bottom: Int, right: Int)
    /// `window.rootViewController = …` for this content (the app's or the placeholder).
    case setRootContent(SurfaceContent)
    /// `window.rootViewController = nil`.
    case removeRootContent
    /// `window.isHidden = …`. Showing is always this, never `makeKeyAndVisible()`.
    case setHidden(Bool)
    /// Drop the platform's reference to the window.
    case releaseWindow
    /// Create the screen's `CADisplayLink` and start it at this rate, maybe paused.
    case startFrameClock(fps: Double, paused: Bool)
    /// `displayLink.isPaused = true`.
    case pauseFrameClock
    /// `displayLink.isPaused = false`.
    case resumeFrameClock
    /// `displayLink.invalidate()` and release it.
    case stopFrameClock
    /// Change the rate of the running clock.
    case setFrameClockRate(Double)
    /// Start (or re-rate) the app's shared refresh tick.
    case startSharedRefresh(fps: Double)
    /// Stop the shared refresh tick.
    case stopSharedRefresh
    /// Tell the app's content to draw this fraction of the pixels.
    case setRenderScale(Double)

    /// The UIKit calls for one engine command, in order.
    public static func plan(for command: DisplayCommand, path: LifecyclePath) -> [WindowOperation] {
        switch command {
        case .setMode(_, let mode):
            return [.setScreenMode(mode)]
        case .setOverscanCompensation(_, let compensation):
            return [.setOverscanCompensation(compensation)]
        case .createWindow(_, let layout):
            let create: [WindowOperation] = path == .scenes ? [.createWindowInScene] : [.createWindow, .assignScreen]
            return create + [.setFrame(layout.frame), safeAreaInsets(for: layout), .setHidden(true)]
        case .layoutWindow(_, let layout):
            return [.setFrame(layout.frame), safeAreaInsets(for: layout)]
        case .showWindow(_, let content):
            return [.setRootContent(content), .setHidden(false)]
        case .setContent(_, let content):
            return [.setRootContent(content)]
        case .hideWindow:
            return [.setHidden(true)]
        case .destroyWindow:
            return [.setHidden(true), .removeRootContent, .releaseWindow]
        case .startFrameClock(_, let fps, let paused):
            return [.startFrameClock(fps: fps, paused: paused)]
        case .pauseFrameClock:
            return [.pauseFrameClock]
        case .resumeFrameClock:
            return [.resumeFrameClock]
        case .stopFrameClock:
            return [.stopFrameClock]
        case .startRefresh(let fps):
            return [.startSharedRefresh(fps: fps)]
        case .stopRefresh:
            return [.stopSharedRefresh]
        case .setRenderScale(_, let scale):
            return [.setRenderScale(scale)]
        case .setFrameRate(_, let fps):
            return [.setFrameClockRate(fps)]
        }
    }

    /// The safe frame of a layout as insets of its frame (zero except under the `none` compensation).
    public static func safeAreaInsets(for layout: DisplayLayout) -> WindowOperation {
        let frame = layout.frame, safe = layout.safeFrame
        return .setSafeAreaInsets(top: safe.y - frame.y,
                                  left: safe.x - frame.x,
                                  bottom: (frame.y + frame.height) - (safe.y + safe.height),
                                  right: (frame.x + frame.width) - (safe.x + safe.width))
    }

    /// Why a platform must refuse this operation for a display, given whether the display's window exists
    /// now, or `nil` when it may be carried out. Apple sets a screen's mode before a window is associated
    /// with the screen, so a mode while the app's window is there is refused (the engine releases the window
    /// first, then sets the mode and compensation, then creates the window again); a second window for the
    /// same display, or a window operation without one, is refused too.
    ///
    /// ```swift
    /// WindowOperation.setScreenMode(mode).refusal(windowExists: true) // "the app's window is still on …"
    /// ```
    public func refusal(windowExists: Bool) -> String? {
        switch self {
        case .setScreenMode where windowExists:
            "the app's window is still on the screen; a mode is set before a window is associated with the "
                + "screen (the window is released first)"
        case .createWindow where windowExists, .createWindowInScene where windowExists:
            "the display already has a window; release it before creating another"
        default:
            needsWindow && !windowExists ? "no window for the display; was createWindow carried out?" : nil
        }
    }

    /// Whether the operation needs a window to exist.
    public var needsWindow: Bool {
        switch self {
        case .assignScreen, .setFrame, .setSafeAreaInsets, .setRootContent, .removeRootContent, .setHidden,
             .releaseWindow, .setRenderScale:
            true
        default:
            false
        }
    }
}
