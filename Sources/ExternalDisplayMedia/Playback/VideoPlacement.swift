/// Where the picture of the loaded video is shown.
public enum VideoPlacement: Sendable, Hashable, Codable {
    /// In the app's main window (the laptop's screen, the device).
    case mainWindow
    /// Full screen on an external display, the main window showing the controls and where the video plays.
    case externalDisplay(VideoDisplay)

    /// The external display, if the video is on one.
    public var display: VideoDisplay? {
        if case .externalDisplay(let display) = self { display } else { nil }
    }
}
