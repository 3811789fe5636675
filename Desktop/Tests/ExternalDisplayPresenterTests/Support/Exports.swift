// The shared test support (MiniPDF, poll, the binary) is visible in every file of this target.
@_exported import ExtDisplayTestSupport
