import ExternalDisplayMedia
import Foundation

/// The answer to one ``MPRISRequest``: the reply (or error) for the caller and, for transport methods, the
/// remote command to hand to the app.
public struct MPRISResponse: Sendable, Hashable {
    /// The reply's arguments, or the error to reply with.
    public var reply: Result<[MPRISValue], MPRISCallError>
    /// The remote command the request carried, with the router's decision; `nil` for property access.
    public var command: ReceivedRemoteCommand?

    /// Creates a response.
    public init(reply: Result<[MPRISValue], MPRISCallError>, command: ReceivedRemoteCommand? = nil) {
        self.reply = reply
        self.command = command
    }
}

extension MPRISPlayerModel {
    /// Answers `request` at clock reading `instant`. Setting `Volume` changes the model; everything else
    /// leaves it alone: transport methods only produce a command, and the app's session publishes the result.
    ///
    /// MPRIS asks that a method the player cannot act on has no effect rather than failing, so transport
    /// methods always reply successfully; the router's status travels with the command.
    public mutating func respond(to request: MPRISRequest, at instant: TimeInterval) -> MPRISResponse {
        switch request {
        case .introspect:
            return MPRISResponse(reply: .success([.string(MPRISIntrospection.xml)]))
        case .getProperty(let interface, let name):
            guard let properties = properties(of: interface, at: instant) else {
                return MPRISResponse(reply: .failure(.unknownInterface(interface)))
            }
            guard let value = properties[named: name] else {
                return MPRISResponse(reply: .failure(.unknownProperty(interface, name)))
            }
            return MPRISResponse(reply: .success([.variant(value)]))
        case .getAllProperties(let interface):
            guard let properties = properties(of: interface, at: instant) else {
                return MPRISResponse(reply: .failure(.unknownInterface(interface)))
            }
            return MPRISResponse(reply: .success([.dictionary(properties)]))
        case .setProperty(let interface, let name, let value):
            return set(interface: interface, name: name, value: value, at: instant)
        case .raise, .quit:
            return MPRISResponse(reply: .success([]))
        case .openURI(let uri):
            return MPRISResponse(reply: .failure(.notSupported("OpenUri(\(uri)): this player plays only what its app loads; SupportedUriSchemes is empty")))
        case .next: return route(.nextTrack, at: instant)
        case .previous: return route(.previousTrack, at: instant)
        case .pause: return route(.pause, at: instant)
        case .playPause: return route(.togglePlayPause, at: instant)
        case .stop: return route(.stop, at: instant)
        case .play: return route(.play, at: instant)
        case .seek(let offset): return route(.seek(by: Double(offset) / 1_000_000), at: instant)
        case .setPosition(let track, let position):
            let command = RemoteCommand.changePosition(to: Double(position) / 1_000_000)
            guard track == trackID else {
                // A stale request for another track is ignored, as MPRIS specifies.
                let decision = RemoteCommandDecision(status: .noSuchContent)
                return MPRISResponse(reply: .success([]), command: ReceivedRemoteCommand(command: command, decision: decision))
            }
            return route(command, at: instant)
        }
    }

    private func route(_ command: RemoteCommand, at instant: TimeInterval) -> MPRISResponse {
        let decision = router.decide(command, for: nowPlaying, at: instant)
        return MPRISResponse(reply: .success([]), command: ReceivedRemoteCommand(command: command, decision: decision))
    }

    private mutating func set(interface: String, name: String, value: MPRISValue,
                              at instant: TimeInterval) -> MPRISResponse {
        guard let properties = properties(of: interface, at: instant) else {
            return MPRISResponse(reply: .failure(.unknownInterface(interface)))
        }
        guard properties[named: name] != nil else {
            return MPRISResponse(reply: .failure(.unknownProperty(interface, name)))
        }
        switch (interface, name, value) {
        case (MPRISNames.playerInterface, "Rate", .double(let rate)):
            guard rate.isFinite, rate >= 0 else {
                return MPRISResponse(reply: .failure(.invalidArguments(
                    "Rate must be a finite number ≥ 0 (got \(rate)); MinimumRate…MaximumRate are the rates played")))
            }
            return route(.changeRate(to: rate), at: instant)
        case (MPRISNames.playerInterface, "Volume", .double(let level)):
            guard level.isFinite else { return MPRISResponse(reply: .failure(.invalidArguments("Volume must be a finite number"))) }
            volume = max(0, level)
            return MPRISResponse(reply: .success([]))
        case (MPRISNames.playerInterface, "Rate", _), (MPRISNames.playerInterface, "Volume", _):
            return MPRISResponse(reply: .failure(.invalidArguments("\(name) is a double (d), got \(value.signature)")))
        default:
            return MPRISResponse(reply: .failure(.readOnly(name)))
        }
    }
}
