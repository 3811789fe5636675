import ExtDisplayTestSupport
import Foundation
import Testing

/// Files as users have them: a symbolic link to a clip plays; a clip named in Latin-1 (bytes that are not UTF-8,
/// as old USB sticks have them) opens and is shown escaped; a FIFO or device is refused before any thread blocks on
/// it; and the served file is read from the descriptor opened at start, never by name again.
@Suite("play: files as users have them")
struct FilesAsUsersHaveThemTests {
    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs a shell script (`$EDK` is the binary) under a 40 s hang guard, no display server; status, stdout, stderr.
    static func shell(_ script: String, in dir: URL, environment: [String: String] = [:]) throws -> (Int32, String, String) {
        let out = dir.appendingPathComponent("out-\(UUID().uuidString)"), err = dir.appendingPathComponent("err-\(UUID().uuidString)")
        var env = ["EDK": try Repository.extdisplay().path, "DISPLAY": "", "WAYLAND_DISPLAY": ""]
        for (key, value) in environment { env[key] = value }
        let status = try Shell.run(["sh", "-c", "cd '\(dir.path)' && timeout -s KILL 40 sh -c '\(script)' >'\(out.path)' 2>'\(err.path)'"],
                                   environment: env).status
        return (status, (try? String(contentsOf: out, encoding: .utf8)) ?? "", (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    static let headless = "--simulate laptop,hdmi-tv-1080p --snapshot shots --keys wait:1"

    @Test func aSymbolicLinkToAClipPlays() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try TestClip.make(fps: 10, colors: [0xFF0000, 0x00FF00])
        defer { try? FileManager.default.removeItem(at: clip.url.deletingLastPathComponent()) }
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("talk.webm").path,
                                                   withDestinationPath: clip.url.path)
        let (status, stdout, stderr) = try Self.shell("exec \"$EDK\" play talk.webm \(Self.headless)", in: dir)
        #expect(status == 0, "\(status): \(stderr)")
        #expect(!stderr.contains("not a regular file"), "\(stderr)")
        #expect(stdout.contains("160×90"), "\(stdout.prefix(600))")
    }

    /// `\xe9t\xe9-demo.webm`: ArgumentParser sees U+FFFD where the bytes were; the file is found by the bytes.
    @Test func aLatin1NamedClipOpensAndIsShownEscaped() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let clip = try TestClip.make(fps: 10, colors: [0xFF0000, 0x00FF00])
        defer { try? FileManager.default.removeItem(at: clip.url.deletingLastPathComponent()) }
        // Copied under the Latin-1 name by the shell (printf's octal escapes: the bytes E9 74 E9).
        let (copied, _, copyErrors) = try Self.shell("cp \"\(clip.url.path)\" \"$(printf \"\\351t\\351-demo.webm\")\"", in: dir)
        #expect(copied == 0, "\(copyErrors)")
        let (status, stdout, stderr) = try Self.shell("exec \"$EDK\" play \"$(printf \"\\351t\\351-demo.webm\")\" \(Self.headless)", in: dir)
        // Found by its bytes and opened: no longer "…/\u{FFFD}t\u{FFFD}-demo.webm: no such file".
        #expect(!(stdout + stderr).contains("\u{FFFD}"), "\(stdout.prefix(600)) \(stderr)")
        #expect(!stderr.contains("no such file") && !stderr.contains("does not exist"), "\(stderr)")
        // The decoder is handed the descriptor's path (/proc/self/fd/N: a Swift path cannot hold these bytes), which
        // VideoDecoder.checkReadable follows with stat(2) to the clip.
        #expect(status == 0, "\(status): \(stderr)")
        // Missing, it is named by its bytes too.
        let (missing, _, missingErrors) = try Self.shell("exec \"$EDK\" play \"$(printf \"\\351t\\351-gone.webm\")\" \(Self.headless)", in: dir)
        #expect(missing == 2 && missingErrors.contains(#"\xe9t\xe9-gone.webm does not exist"#), "\(missing): \(missingErrors)")
    }

    /// On a desktop (DISPLAY set: the server started before the player's own check) a FIFO with no writer blocked a
    /// thread opening it, for ever. Refused now before anything starts, and so is a device.
    @Test func aFIFOOrADeviceIsRefusedBeforeAnythingStarts() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(mkfifo(dir.appendingPathComponent("film.webm").path, 0o644) == 0)
        let start = Date()
        let (status, stdout, stderr) = try Self.shell("exec \"$EDK\" play film.webm --serve 127.0.0.1:0", in: dir,
                                                      environment: ["DISPLAY": ":987"])
        #expect(status == 2, "\(status) (137: still blocked after 40 s): \(stderr)")
        #expect(stderr.contains("film.webm is a FIFO (named pipe), not a regular file"), "\(stderr)")
        #expect(!stdout.contains("to browsers at"), "\(stdout)")
        #expect(Date().timeIntervalSince(start) < 20)
        let (device, _, deviceErrors) = try Self.shell("exec \"$EDK\" play /dev/zero --serve 127.0.0.1:0", in: dir,
                                                       environment: ["DISPLAY": ":987"])
        #expect(device == 2 && deviceErrors.contains("/dev/zero is a device, not a regular file"), "\(device): \(deviceErrors)")
    }

    /// The served file replaced by a FIFO under its name mid-film: every `/media` request is still answered with
    /// the original bytes (from the descriptor opened at start), and `/` keeps answering. It re-opened the name per
    /// request: each opener blocked on the FIFO, and after 20 `/media` requests `/` no longer answered.
    @Test func theServedFileIsReadFromTheDescriptorOpenedAtStart() async throws {
        let clip = try TestClip.make(fps: 10, colors: TestClip.palette + TestClip.palette)
        defer { try? FileManager.default.removeItem(at: clip.url.deletingLastPathComponent()) }
        let original = try Data(contentsOf: clip.url)
        let player = try ChildProcess([try Repository.extdisplay().path, "play", clip.url.path, "--serve", "127.0.0.1:0"],
                                      environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""])
        defer { player.signal(SIGKILL) }
        let line = try #require(await player.waitForLine(timeout: 30) { $0.contains("to browsers at") },
                                "no serving line: \(player.stdout) \(player.stderr)")
        let url = try #require(line.split(separator: " ").last.map(String.init))
        // Swapped under its name for a FIFO nobody writes to.
        try FileManager.default.moveItem(at: clip.url, to: clip.url.appendingPathExtension("moved"))
        #expect(mkfifo(clip.url.path, 0o644) == 0)
        let body = clip.url.deletingLastPathComponent().appendingPathComponent("body")
        for request in 0..<25 {
            let got = try Shell.run(["curl", "-s", "--max-time", "5", "-r", "0-99", "-o", body.path, "-w", "%{http_code}", url + "media"])
            #expect(got.status == 0 && got.output == "206", "request \(request): curl status \(got.status), \(got.output)")
            if request == 0 {
                #expect((try? Data(contentsOf: body)) == original.prefix(100), "the original bytes")
            }
        }
        let page = try Shell.run(["curl", "-s", "--max-time", "5", "-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(page.output == "200", "/ after 25 /media requests: \(page.output) (status \(page.status))")
    }
}
