import ExternalDisplayMPRIS
import ExternalDisplayMedia
import Foundation
import Testing

@Suite("MPRIS model: properties and signals")
struct MPRISPlayerModelTests {
    static let song = NowPlayingMetadata(identifier: "song/1", title: "Song", artist: "Artist", album: "Album",
                                         artworkURL: URL(string: "file:///tmp/cover.png"), duration: 300)

    func model(status: PlaybackStatus = .playing, capabilities: PlaybackCapabilities = PlaybackCapabilities())
        -> MPRISPlayerModel {
        let state = NowPlayingState(metadata: Self.song,
                                    timeline: PlaybackTimeline(elapsed: 10, at: 100, rate: status == .playing ? 1 : 0,
                                                               duration: 300),
                                    status: status)
        return MPRISPlayerModel(identity: "Test", nowPlaying: state,
                                router: RemoteCommandRouter(capabilities: capabilities))
    }

    @Test func metadataCarriesTrackIDTitleArtistAlbumLengthAndArt() {
        let metadata = model().metadata
        #expect(metadata[named: "mpris:trackid"] == .objectPath("/org/externaldisplaykit/track/song_2F1"))
        #expect(metadata[named: "xesam:title"] == .string("Song"))
        #expect(metadata[named: "xesam:artist"] == .strings(["Artist"]))
        #expect(metadata[named: "xesam:album"] == .string("Album"))
        #expect(metadata[named: "mpris:length"] == .int64(300_000_000))
        #expect(metadata[named: "mpris:artUrl"] == .string("file:///tmp/cover.png"))
    }

    @Test func nothingLoadedIsNoTrackAndStopped() {
        let empty = MPRISPlayerModel(identity: "Test")
        #expect(empty.metadata == [MPRISEntry("mpris:trackid", .objectPath(MPRISNames.noTrack))])
        #expect(empty.playbackStatus == "Stopped")
        #expect(empty.playerProperties(at: 0)[named: "CanPlay"] == .boolean(false))
    }

    @Test func positionIsComputedAtEachReadInMicroseconds() {
        let playing = model()
        #expect(playing.playerProperties(at: 100)[named: "Position"] == .int64(10_000_000))
        #expect(playing.playerProperties(at: 112.5)[named: "Position"] == .int64(22_500_000))
    }

    @Test func positionIsNeverSignalled() {
        var later = model()
        later.nowPlaying.timeline = later.nowPlaying.timeline.seeking(to: 200, at: 150)
        #expect(later.changedPlayerProperties(since: model()).isEmpty)
        #expect(model().signalledPlayerProperties[named: "Position"] == nil)
    }

    @Test func pausingSignalsStatusAndNothingElse() {
        let changed = model(status: .paused).changedPlayerProperties(since: model())
        #expect(changed.map(\.name) == ["PlaybackStatus"])
        #expect(changed[named: "PlaybackStatus"] == .string("Paused"))
    }

    @Test func capabilitiesComeFromTheRouter() {
        let queue = model(capabilities: PlaybackCapabilities(hasNextItem: true, canSeek: false,
                                                             supportedRates: 0.5...2))
        let properties = queue.playerProperties(at: 100)
        #expect(properties[named: "CanGoNext"] == .boolean(true))
        #expect(properties[named: "CanGoPrevious"] == .boolean(false))
        #expect(properties[named: "CanSeek"] == .boolean(false))
        #expect(properties[named: "MinimumRate"] == .double(0.5))
        #expect(properties[named: "MaximumRate"] == .double(2))
        #expect(queue.changedPlayerProperties(since: model()).map(\.name).sorted() ==
                ["CanGoNext", "CanSeek", "MaximumRate", "MinimumRate"])
    }

    @Test func seekedIsForJumpsOnly() {
        let playing = model()
        #expect(playing.seekedPosition(after: .seek, at: 100) == 10_000_000)
        #expect(playing.seekedPosition(after: .drift, at: 101) == 11_000_000)
        #expect(playing.seekedPosition(after: .rateChange, at: 100) == nil)
        #expect(MPRISPlayerModel(identity: "x").seekedPosition(after: .newItem, at: 0) == nil)
    }

    @Test func trackIDsAreValidAndDistinct() {
        #expect(MPRISNames.trackID(for: "a-b") != MPRISNames.trackID(for: "a_b"))
        #expect(MPRISNames.trackID(for: "") == "/org/externaldisplaykit/track/_")
        let path = MPRISNames.trackID(for: "ünïcode id/42")
        #expect(path.dropFirst(MPRISNames.trackPathPrefix.count).allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" })
    }

    @Test func playerNamesFollowBusNameRules() {
        #expect(MPRISNames.isValidPlayerName("extdisplay"))
        #expect(MPRISNames.isValidPlayerName("vlc.instance42"))
        #expect(!MPRISNames.isValidPlayerName(""))
        #expect(!MPRISNames.isValidPlayerName("9lives"))
        #expect(!MPRISNames.isValidPlayerName("has space"))
        #expect(!MPRISNames.isValidPlayerName("a..b"))
    }
}

@Suite("MPRIS model: requests")
struct MPRISRequestTests {
    var model = MPRISPlayerModel(
        identity: "Test",
        nowPlaying: NowPlayingState(metadata: MPRISPlayerModelTests.song,
                                    timeline: PlaybackTimeline(elapsed: 10, at: 0, rate: 1, duration: 300),
                                    status: .playing),
        router: RemoteCommandRouter(capabilities: PlaybackCapabilities(hasNextItem: true, supportedRates: 0.5...2)))

    @Test func transportMethodsParse() throws {
        #expect(try MPRISRequest.parse(interface: MPRISNames.playerInterface, member: "PlayPause", arguments: []) == .playPause)
        #expect(try MPRISRequest.parse(interface: nil, member: "Next", arguments: []) == .next)
        #expect(try MPRISRequest.parse(interface: MPRISNames.playerInterface, member: "Seek",
                                       arguments: [.int64(5_000_000)]) == .seek(offset: 5_000_000))
        #expect(try MPRISRequest.parse(interface: MPRISNames.playerInterface, member: "SetPosition",
                                       arguments: [.objectPath("/t"), .int64(1)]) == .setPosition(trackID: "/t", position: 1))
    }

    @Test func wrongArgumentTypesAreInvalidArgs() {
        #expect(throws: MPRISCallError.self) {
            try MPRISRequest.parse(interface: MPRISNames.playerInterface, member: "Seek", arguments: [.string("abc")])
        }
        do {
            _ = try MPRISRequest.parse(interface: MPRISNames.playerInterface, member: "Seek", arguments: [.string("abc")])
        } catch {
            #expect(error.name == "org.freedesktop.DBus.Error.InvalidArgs")
            #expect(error.message.contains("int64"))
        }
        #expect(throws: MPRISCallError.invalidArguments("Play takes () — no arguments — but got (x)")) {
            try MPRISRequest.parse(interface: MPRISNames.playerInterface, member: "Play", arguments: [.int64(1)])
        }
    }

    @Test func unknownMethodsAndInterfacesAreNamed() {
        #expect(throws: MPRISCallError.unknownMethod(MPRISNames.playerInterface, "Bogus")) {
            try MPRISRequest.parse(interface: MPRISNames.playerInterface, member: "Bogus", arguments: [])
        }
        #expect(throws: MPRISCallError.unknownInterface("com.example.Nope")) {
            try MPRISRequest.parse(interface: "com.example.Nope", member: "Play", arguments: [])
        }
    }

    @Test mutating func getAndGetAllAnswerWithVariantsAndDictionaries() {
        let status = model.respond(to: .getProperty(interface: MPRISNames.playerInterface, name: "PlaybackStatus"), at: 0)
        #expect(status.reply == .success([.variant(.string("Playing"))]))
        let all = model.respond(to: .getAllProperties(interface: MPRISNames.rootInterface), at: 0)
        guard case .success(let values) = all.reply, case .dictionary(let entries)? = values.first else {
            Issue.record("GetAll did not answer with a dictionary: \(all.reply)")
            return
        }
        #expect(entries[named: "Identity"] == .string("Test"))
        let missing = model.respond(to: .getProperty(interface: MPRISNames.playerInterface, name: "Shuffle"), at: 0)
        #expect(missing.reply == .failure(.unknownProperty(MPRISNames.playerInterface, "Shuffle")))
    }

    @Test mutating func setRateBecomesACommandAndReadOnlyPropertiesRefuse() {
        let rate = model.respond(to: .setProperty(interface: MPRISNames.playerInterface, name: "Rate", value: .double(1.5)), at: 0)
        #expect(rate.command == ReceivedRemoteCommand(command: .changeRate(to: 1.5),
                                                      decision: RemoteCommandDecision(status: .success, action: .setRate(1.5))))
        let readOnly = model.respond(to: .setProperty(interface: MPRISNames.playerInterface, name: "PlaybackStatus",
                                                      value: .string("Paused")), at: 0)
        #expect(readOnly.reply == .failure(.readOnly("PlaybackStatus")))
        let wrongType = model.respond(to: .setProperty(interface: MPRISNames.playerInterface, name: "Volume",
                                                       value: .string("loud")), at: 0)
        #expect(wrongType.reply.isFailure)
        _ = model.respond(to: .setProperty(interface: MPRISNames.playerInterface, name: "Volume", value: .double(0.5)), at: 0)
        #expect(model.volume == 0.5)
    }

    @Test mutating func seekAndSetPositionGoThroughTheRouter() {
        let seek = model.respond(to: .seek(offset: 5_000_000), at: 10)  // position 20 at instant 10
        #expect(seek.command?.decision.action == .seek(to: 25))
        let set = model.respond(to: .setPosition(trackID: model.trackID, position: 42_000_000), at: 0)
        #expect(set.command?.decision.action == .seek(to: 42))
        let stale = model.respond(to: .setPosition(trackID: "/org/other", position: 42_000_000), at: 0)
        #expect(stale.command?.decision == RemoteCommandDecision(status: .noSuchContent))
        #expect(stale.reply == .success([]))
    }

    @Test mutating func openUriIsNotSupported() {
        let response = model.respond(to: .openURI("file:///x.mp3"), at: 0)
        #expect(response.reply.isFailure)
        #expect(response.command == nil)
    }
}

extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}

@Suite("MPRIS model: any call")
struct MPRISAnyCallTests {
    static let members = ["Introspect", "Get", "GetAll", "Set", "Raise", "Quit", "Next", "Previous", "Pause",
                          "PlayPause", "Stop", "Play", "Seek", "SetPosition", "OpenUri", "Bogus", ""]
    static let interfaces: [String?] = [nil, MPRISNames.rootInterface, MPRISNames.playerInterface,
                                        MPRISNames.propertiesInterface, MPRISNames.introspectableInterface,
                                        "com.example.Other"]
    static let values: [MPRISValue] = [.string(MPRISNames.playerInterface), .string("Rate"), .objectPath("/x"),
                                       .int64(-5), .double(.nan), .boolean(true), .strings([]),
                                       .variant(.double(2)), .variant(.string("x"))]
    static let knownErrors: Set<String> = [
        "org.freedesktop.DBus.Error.InvalidArgs", "org.freedesktop.DBus.Error.UnknownMethod",
        "org.freedesktop.DBus.Error.UnknownInterface", "org.freedesktop.DBus.Error.UnknownProperty",
        "org.freedesktop.DBus.Error.PropertyReadOnly", "org.freedesktop.DBus.Error.NotSupported",
    ]

    /// Every member on every interface with every argument list of up to three of the sample values: each
    /// either parses and gets an answer, or is refused with a known D-Bus error — and the app's state is
    /// never changed by the answer itself.
    @Test(arguments: members)
    func everyCallIsAnsweredOrRefusedWithAKnownError(_ member: String) {
        var argumentLists: [[MPRISValue]] = [[]]
        for length in 1...3 {
            argumentLists += argumentLists.filter { $0.count == length - 1 }.flatMap { list in
                Self.values.map { list + [$0] }
            }
        }
        for interface in Self.interfaces {
            for arguments in argumentLists {
                var model = MPRISPlayerModel(identity: "Any")
                do {
                    let request = try MPRISRequest.parse(interface: interface, member: member, arguments: arguments)
                    let response = model.respond(to: request, at: 0)
                    if case .failure(let error) = response.reply {
                        #expect(Self.knownErrors.contains(error.name), "\(member)\(arguments): \(error)")
                    }
                    #expect(model.nowPlaying == .empty)
                } catch {
                    #expect(Self.knownErrors.contains(error.name), "\(member)\(arguments): \(error)")
                    #expect(!error.message.isEmpty)
                }
            }
        }
    }
}
