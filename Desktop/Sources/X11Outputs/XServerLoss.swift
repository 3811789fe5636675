import DesktopFiles
import DesktopModeState
import SDLWindows
import DesktopImages
import CXRandR
import Foundation

/// What happens when the X server goes away under the process (it was stopped, crashed, or the session
/// ended): one clear line on standard error instead of Xlib's "XIO: fatal IO error", the mode records dropped
/// (the server's modes ended with it, so there is nothing to put back), and exit status 1. X protocol errors
/// (a refused request) are recorded instead of ending the process.
///
/// ```swift
/// XServerLoss.install()
/// ```
public enum XServerLoss {
    /// Installs the handlers for every X connection of the process (Xlib's handlers are process-wide).
    public static func install() {
        edk_install_x_error_handler()
        XSetIOErrorHandler { _ in
            let display = getenv("DISPLAY").map { String(cString: $0) } ?? ""
            let message = "extdisplay: the X server \(display) went away (it was stopped or crashed); its windows and "
                + "modes ended with it, so there is nothing to restore. Start the X session again and rerun.\n"
            _ = message.withCString { write(2, $0, strlen($0)) }
            ModeRestoreGuard.shared.serverGone()
            _exit(1)
        }
    }
}
