@_exported import ExtDisplayTestSupport
import Foundation

// The shared test support (KWinCompositor, KWinScreenShot, ChildProcess, runToEnd, poll) is visible in every file
// of this target.

/// The built `extdisplay` (the one scripts/test.sh built, else the one next to the test bundle).
func extdisplayPath() throws -> String {
    do { return try Repository.extdisplay().path } catch { throw SupportError(error.description) }
}
