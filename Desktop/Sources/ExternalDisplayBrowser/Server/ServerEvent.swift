import ExternalDisplayKit

/// What the server tells the platform, in the order it happened.
enum ServerEvent: Sendable {
    /// A page sent its first viewport: a display connects.
    case viewerConnected(ViewerConnection, BrowserViewport)
    /// A page reported another viewport: a mode change.
    case viewerResized(DisplayID, BrowserViewport)
    /// A page closed, reloaded, lost its connection or sent something invalid: a disconnect.
    case viewerGone(DisplayID, reason: String)
    /// The remote (with the token) sent a command.
    case remote(BrowserRemoteCommand)
    /// A remote page connected or left (count of remotes connected).
    case remotes(Int)
}
