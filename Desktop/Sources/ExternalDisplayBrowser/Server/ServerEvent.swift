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
    /// The remote chose a drawing tool (a key's name, one of the platform's ``BrowserDisplayPlatform/remoteKeyNames``).
    case remoteKey(String)
    /// The remote drew (part of a stroke, checked).
    case remoteInk(BrowserRemoteInk)
    /// The remote asked for a zoom (checked).
    case remoteZoom(BrowserRemoteZoom)
    /// A remote's key or ink message was refused (the first one of its connection; the page is told each time).
    case remoteRefused(String)
}
