#if canImport(UIKit) && canImport(AVFoundation)
import AVFoundation
import ExternalDisplayMedia

extension AVAudioSession {
    /// Sets the audio session up for media playback: category `.playback` (audio keeps playing with the
    /// ringer switch on silent, and over AirPlay), with the movie-playback mode for video content.
    ///
    /// To keep playing in the background — with the screen locked, or while another app is in front — the
    /// app must also declare the `audio` background mode: in Xcode, Signing & Capabilities › Background Modes ›
    /// "Audio, AirPlay, and Picture in Picture" (the `UIBackgroundModes` array with `audio` in the Info.plist).
    ///
    /// ```swift
    /// try AVAudioSession.sharedInstance().configureForPlayback(of: .featureVideo)
    /// ```
    public func configureForPlayback(of content: PlaybackContentKind) throws {
        try setCategory(.playback, mode: content.usesMoviePlaybackAudioMode ? .moviePlayback : .default)
    }
}
#endif

#if canImport(WebKit)
import WebKit

extension WKWebViewConfiguration {
    /// Applies an external-playback decision to web content: whether its videos may play over AirPlay.
    ///
    /// ```swift
    /// let configuration = WKWebViewConfiguration()
    /// configuration.applyExternalPlayback(ExternalPlaybackPolicy.decide(
    ///     ExternalPlaybackSituation(content: .incidentalVideo, isFullScreen: false, screen: .none)))
    /// let webView = WKWebView(frame: .zero, configuration: configuration)
    /// ```
    public func applyExternalPlayback(_ decision: ExternalPlaybackDecision) {
        allowsAirPlayForMediaPlayback = decision.allowsExternalPlayback
    }
}
#endif
