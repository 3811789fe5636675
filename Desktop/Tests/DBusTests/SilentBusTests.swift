#if os(Linux)
import ExtDisplayTestSupport
import ExternalDisplayMPRIS
import Foundation
import Testing

/// A session bus that accepts the connection and never answers (``SilentBus``): every D-Bus wait is bounded.
/// sd-bus alone waited for its 90 s authentication timeout and then said "Transport endpoint is not connected";
/// now the player gives up after ``MPRISPlayer/busTimeout`` (5 s) with a message that says the bus did not answer.
@Suite("A silent session bus costs a bounded wait")
struct SilentBusTests {
    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    @Test func startingOnASilentBusGivesUpAtTheTimeout() throws {
        let bus = try SilentBus()
        defer { bus.stop() }
        let start = DispatchTime.now()
        do {
            let player = try MPRISPlayer.start(name: "edksilent", identity: "x", busAddress: bus.address, timeout: 1)
            player.stop()
            Issue.record("started on a bus that never answers")
        } catch {
            guard case .busTimedOut(let address, _, let seconds) = error else {
                Issue.record("wrong error: \(error)")
                return
            }
            #expect(address == bus.address && seconds == 1)
            #expect(error.description.contains("did not answer") && error.description.contains("within 1 s"), "\(error)")
        }
        let elapsed = Self.seconds(since: start)
        #expect(elapsed >= 0.9 && elapsed < 4, "gave up after \(elapsed) s (timeout 1 s)")
        #expect(bus.connections == 1, "the player reached the silent bus")
    }

    /// The documented default: 5 s.
    @Test func theDefaultWaitIsFiveSeconds() {
        #expect(MPRISPlayer.busTimeout == 5)
    }

    /// Runs the binary with the silent bus as its session bus; status (nil: killed by the guard), stdout, stderr.
    static func runBinary(_ arguments: [String], bus: SilentBus, guardSeconds: Int = 40) throws -> (Int32, String, String, Double) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("silent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let binary = try Repository.extdisplay().path
        let start = DispatchTime.now()
        let result = try runToEnd("/usr/bin/timeout", ["-s", "KILL", String(guardSeconds), binary] + arguments,
                                  environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "DISPLAY": "", "WAYLAND_DISPLAY": ""],
                                  directory: dir)
        return (result.status, result.stdout, result.stderr, seconds(since: start))
    }

    /// `nowplaying` on a silent bus: exit 1 after the 5 s wait, one line that says so.
    @Test func nowPlayingOnASilentBusExitsWithAMessage() throws {
        let bus = try SilentBus()
        defer { bus.stop() }
        let (status, _, stderr, elapsed) = try Self.runBinary(["nowplaying", "--title", "Silence"], bus: bus)
        #expect(status == 1, "status \(status) (137: still waiting after 40 s): \(stderr)")
        #expect(stderr.contains("did not answer the connection (authentication and Hello) within 5 s"), "\(stderr)")
        #expect(elapsed >= 4.5 && elapsed < 20, "exited after \(elapsed) s")
        #expect(bus.connections >= 1)
    }

    /// `play --keys listen:0.5` (headless) on a silent bus: the run plays without MPRIS after the bounded wait
    /// and says why (it ran 90 s, then failed with "Transport endpoint is not connected").
    @Test func playListeningOnASilentBusIsBounded() throws {
        let bus = try SilentBus()
        defer { bus.stop() }
        let clip = try TestClip.make(fps: 10, colors: [0xFF0000, 0x00FF00])
        defer { try? FileManager.default.removeItem(at: clip.url.deletingLastPathComponent()) }
        let shots = clip.url.deletingLastPathComponent().appendingPathComponent("shots").path
        let (status, stdout, stderr, elapsed) = try Self.runBinary(
            ["play", clip.url.path, "--simulate", "laptop,hdmi-tv-1080p", "--snapshot", shots, "--keys", "listen:0.5"], bus: bus)
        #expect(status == 0, "status \(status) (137: still waiting after 40 s): \(stderr)")
        #expect(stdout.contains("no MPRIS remote control") && stdout.contains("did not answer"), "\(stdout.prefix(800))")
        #expect(elapsed < 20, "ran \(elapsed) s")
    }
}
#endif
