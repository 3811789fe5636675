@_exported import ExtDisplayTestSupport
import Foundation

// The shared test support (XorgServer, ChildProcess, runToEnd, poll and eventually, MiniPDF, XWDImage) is
// visible in every file of this target.

/// The built `extdisplay` (see ``Repository/extdisplay()``).
func extdisplayBinary() throws -> URL {
    do { return try Repository.extdisplay() } catch { throw XorgTestError(error.description) }
}
