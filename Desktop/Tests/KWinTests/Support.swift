@_exported import ExtDisplayTestSupport
import Foundation

// The shared test support (KWinCompositor, KWinScreenShot, ChildProcess, runToEnd, poll) is visible in every file
// of this target.
