@_exported import ExtDisplayTestSupport
import Foundation

// The shared test support (XorgServer, ChildProcess, runToEnd, poll and eventually, MiniPDF, XWDImage) is
// visible in every file of this target.
