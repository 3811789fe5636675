import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter
import PresenterRuntime

/// Runs the headless presenter on the simulator and checks the PNGs it writes: what the audience sees
/// differs from the console and never contains a pixel of the notes colour.
@Suite("Headless snapshots", .serialized)
@MainActor
struct HeadlessSnapshotTests {
    /// The repository's root (the scripts are there since the desktop package moved into Desktop/).
    static let packageRoot = Shell.packageRoot

    static let deck = DeckParser.parse("""
    # Quarterly numbers
    - Revenue is up
      - mostly services
    - Costs are flat
    Note:
    Do not mention the layoffs. Secret secret secret secret.
    ---
    # Second slide
    Plain text here.
    Note: Another private note with many words in it.
    ---
    # Last
    """, file: "secret.md")

    func temporaryDirectory() -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("present-test-\(UUID().uuidString)")
        return url
    }

    /// Counts pixels of `color` in a PNG with the independent Python scanner.
    func scan(_ file: URL, _ color: RGBA) throws -> Int {
        let out = try runToEnd("/usr/bin/env", ["python3", Self.packageRoot.appendingPathComponent("scripts/present-pngscan.py").path,
                                                file.path, String(color.description.dropFirst())]).stdout
        return try #require(Int(out.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func externalSnapshotsShowTheSlideAndNeverTheNotes() async throws {
        let dir = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let steps = try HeadlessStep.parseList("next,m,m,unplug:hdmi-tv-1080p,plug:hdmi-tv-1080p,previous")
        var lines: [String] = []
        let run = HeadlessPresenter(deck: Self.deck, displays: ["laptop", "hdmi-tv-1080p"], steps: steps,
                                    clockStart: Date(timeIntervalSince1970: 0))
        let shots = try await run.run(writingTo: dir) { lines.append($0) }
        let notes = PresenterTheme().notes

        let names = shots.compactMap { $0.file?.lastPathComponent }
        #expect(names.contains("000-start-console.png"))
        #expect(names.contains("000-start-hdmi-tv-1080p.png"))
        #expect(names.contains("004-unplug-hdmi-tv-1080p-console.png"))
        #expect(!names.contains("004-unplug-hdmi-tv-1080p-hdmi-tv-1080p.png"))
        #expect(names.contains("005-plug-hdmi-tv-1080p-hdmi-tv-1080p.png"))
        #expect(lines.contains { $0.hasSuffix("wrote \(dir.appendingPathComponent("001-next-console.png").path)") })

        let console = try #require(shots.first { $0.step == 0 && $0.display == "console" }?.file)
        let external = try #require(shots.first { $0.step == 0 && $0.display == "hdmi-tv-1080p" }?.file)
        #expect(try Data(contentsOf: console) != Data(contentsOf: external))
        #expect(try scan(console, notes) > 500)
        for shot in shots where shot.display != "console" {
            #expect(try scan(try #require(shot.file), notes) == 0, "notes colour on \(shot.file!.lastPathComponent)")
            #expect(try scan(try #require(shot.file), PresenterTheme().slideBackground) > 0
                    || shot.label == "mirror")
        }
    }

    /// Read from the pictures, not from the program's own lines: after unplug and replug, the console and the
    /// TV are pixel for pixel what an independent run that never unplugged shows at the same virtual time (same
    /// slide, same paused timer, same clock, same display list); and that run's pictures differ from the start's,
    /// so the comparison can fail.
    @Test func slideIndexAndTimerSurviveUnplugAndReplug() async throws {
        let clock = Date(timeIntervalSince1970: 0)
        let replugged = try await HeadlessPresenter(
            deck: Self.deck, steps: try HeadlessStep.parseList("next,p,unplug:hdmi-tv-1080p,wait:120,plug:hdmi-tv-1080p"),
            clockStart: clock).run()
        // Five steps of 1/60 s and a 120 s wait, without the unplug: the same virtual time at its last step.
        let steady = try await HeadlessPresenter(
            deck: Self.deck, steps: try HeadlessStep.parseList("next,p,wait:120,wait:0,wait:0"), clockStart: clock).run()
        func png(_ shots: [HeadlessPresenter.Snapshot], step: Int, _ display: String) throws -> Data {
            try #require(shots.first { $0.step == step && $0.display == display }).canvas.pngData()
        }
        for display in ["console", "hdmi-tv-1080p"] {
            #expect(try png(replugged, step: 5, display) == png(steady, step: 5, display),
                    "\(display) after replug differs from a run that never unplugged")
            #expect(try png(steady, step: 5, display) != png(steady, step: 0, display),
                    "\(display): slide 2 with the timer at 2:00 looks like the start")
        }
        #expect(try png(replugged, step: 2, "hdmi-tv-1080p") == png(steady, step: 2, "hdmi-tv-1080p"))
    }

    @Test func overscanCompensationShrinksTheSlideIntoTheSafeFrame() async throws {
        for (compensation, expected) in [(OverscanCompensation.scale, 1920), (.insetBounds, 1824), (.none, 1920)] {
            let shots = try await HeadlessPresenter(deck: Self.deck, steps: [],
                                              configuration: DisplayConfiguration(overscanCompensation: compensation)).run()
            let tv = try #require(shots.first { $0.display == "hdmi-tv-1080p" })
            #expect(tv.canvas.size.width == expected)
            // The corner pixel is letterbox black under `none` (cropped edge), slide colour otherwise only if it reaches it.
            let corner = tv.canvas.pixel(x: 10, y: 10)
            #expect(compensation != .none || corner == RGBA(0, 0, 0))
        }
    }

    @Test func modeSelectionAndSystemModeChangesResizeTheAudienceView() async throws {
        let lowest = try await HeadlessPresenter(deck: Self.deck, steps: [.mode("hdmi-tv-1080p", PixelSize(width: 1280, height: 720))],
                                           configuration: DisplayConfiguration(modeSelection: .lowest)).run()
        let sizes = lowest.filter { $0.display == "hdmi-tv-1080p" }.map(\.canvas.size)
        #expect(sizes == [PixelSize(width: 640, height: 480), PixelSize(width: 1280, height: 720)])
    }

    @Test func badStepsAndPresetsAreClearErrors() async {
        #expect(throws: HeadlessError.self) { try HeadlessStep.parseList("next,jump") }
        await #expect(throws: HeadlessError.self) {
            _ = try await HeadlessPresenter(deck: Self.deck, displays: ["laptop", "no-such-tv"], steps: []).run()
        }
        await #expect(throws: HeadlessError.self) {
            _ = try await HeadlessPresenter(deck: Self.deck, steps: [.unplug("nope")]).run()
        }
    }
}
