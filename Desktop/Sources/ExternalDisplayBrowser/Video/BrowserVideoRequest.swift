public import ExternalDisplayMedia

/// What the remote page of `extdisplay play FILE --serve` (`/remote?token=…`) asked the player for: a transport
/// command, handed to the playback core as a `.remote` event exactly like an MPRIS request, or a volume, handed to
/// it as `setVolume`. The core decides (a rate it does not offer, a position past the end); the page never does.
public enum BrowserVideoRequest: Sendable, Hashable {
    /// Play, pause, play/pause, seek by an offset, seek to a position, change the rate.
    case command(RemoteCommand)
    /// Set the volume to this (finite; the core clamps it to 0…1).
    case volume(Double)
}
