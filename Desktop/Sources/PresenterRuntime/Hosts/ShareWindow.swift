#if canImport(CSDL2)
public import ExtDisplayCore
public import ExternalDisplayKit
public import ExternalDisplayPresenter
import SDLWindows

/// `present --share window`: the audience view in an ordinary window that a call application's "share a window"
/// lists by its title, ``title``. Decorated (the window manager's title bar lets the speaker move it), of the fixed
/// size `--share window=WxH` asks (not resizable: its one mode is its size, and call applications scale what they
/// share anyway), never fullscreen, shown without taking the focus from the console. It is drawn on its window's
/// own surface whenever the picture changes, whether it is covered, on another workspace or hidden: nothing in its
/// drawing path waits for the compositor (see docs/commands.md, `--share`).
public enum ShareWindow {
    /// The title call applications list it by.
    public static let title = ShareTarget.windowTitle

    /// Where the window goes on a screen of `bounds`: its top-right corner (the console's slide is on the left),
    /// within the screen when the window fits; a window manager may place it elsewhere.
    public static func frame(for target: ShareTarget, beside bounds: Rect) -> Rect {
        let x = bounds.x + max(0, bounds.width - target.size.width)
        return Rect(x: x, y: bounds.y, width: target.size.width, height: target.size.height)
    }

    /// The window for `target` on the screen of `bounds`, drawing from the run's `caches`, not shown yet (the
    /// engine shows it).
    @MainActor
    public static func output(for target: ShareTarget, beside bounds: Rect,
                              caches: DrawingCaches) throws -> DesktopAudienceOutput {
        let surface: DesktopSurface
        do {
            surface = try DesktopSurface(display: target.displayID, name: target.name,
                                         frame: frame(for: target, beside: bounds), role: .shared, title: title,
                                         drawing: .windowSurface)
        } catch {
            throw ShareDisplayError("SDL could not open the share window: \(error.description)")
        }
        let output = DesktopAudienceOutput(surface, caches: caches)
        // A page not rendered yet is a placeholder: the talk goes on while it renders.
        output.pageWaiting = .placeholder
        return output
    }
}

#endif
