import ExtDisplayTestSupport
import Foundation
import Testing

/// `present --rehearse` headless on the virtual clock: each step takes 1/60 s and `wait:S` lets S seconds pass, so
/// the timing file's figures are known to the millisecond, worked out here from the steps; the next run plans its
/// budgets from them and shows the pace at each slide; `extdisplay report` reads the file back.
@Suite("Rehearsal and pace, headless")
struct RehearsalTests {
    static let deck = "# Intro\n<!-- time: 0:30 -->\nhello\n---\n# Middle\n- a\n---\n# End\nbye\n"

    static func run(_ arguments: [String], in dir: URL) throws -> CommandResult {
        try runToEnd("/usr/bin/timeout", ["-s", "KILL", "120", try Repository.extdisplay().path] + arguments,
                     environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""], directory: dir)
    }

    static func folder() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rehearsal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(deck.utf8).write(to: dir.appendingPathComponent("talk.md"))
        return dir
    }

    /// The file's slides' seconds and its pauses, read with Foundation's JSON parser (not the project's reader).
    static func figures(_ file: URL, run: Int) throws -> (slides: [Double], pauses: [[Double]], kind: String?) {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let runs = try #require(object?["runs"] as? [[String: Any]])
        let chosen = runs[run]
        let slides = (chosen["slides"] as? [[String: Any]] ?? []).map { ($0["steps"] as? [Double] ?? []).reduce(0, +) }
        let pauses = (chosen["pauses"] as? [[String: Any]] ?? []).map { [$0["at"] as? Double ?? -1, $0["seconds"] as? Double ?? -1] }
        return (slides, pauses, chosen["kind"] as? String)
    }

    @Test("a rehearsal's times to the millisecond; the next talk's budgets and pace come from it; the report reads it")
    func rehearseThenTalk() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // Steps: the start (1/60 s), wait 30 s, Right, wait 45 s, P (pause), wait 20 s, P, Right, wait 10 s.
        // Slide 1: 1/60 + 30 + 1/60 (the Right that leaves it) = 30.033; slide 2: 45 + 1/60 (P) … paused 20 s … + 1/60
        // (P) + 1/60 (Right) = 45.05; slide 3: 10 + the end's 1/60 = 10.017. The pause began at 75.067 s of talk
        // (30.033 + 45.033) and lasted 20 s and the P step's 1/60 = 20.033.
        let first = try Self.run(["present", "talk.md", "--simulate", "laptop", "--rehearse", "--duration", "2",
                                  "--keys", "wait:30,Right,wait:45,p,wait:20,p,Right,wait:10"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let file = dir.appendingPathComponent("talk.timings.json")
        let rehearsal = try Self.figures(file, run: 0)
        #expect(rehearsal.kind == "rehearsal")
        #expect(zip(rehearsal.slides, [30.033, 45.05, 10.017]).allSatisfy { abs($0 - $1) < 0.0015 } && rehearsal.slides.count == 3,
                "\(rehearsal.slides)")
        #expect(rehearsal.pauses.count == 1 && abs(rehearsal.pauses[0][0] - 75.067) < 0.0015
                && abs(rehearsal.pauses[0][1] - 20.033) < 0.0015, "\(rehearsal.pauses)")
        #expect(first.stdout.contains("timings of this rehearsal (1:25, 3 slides) added to"), "\(first.stdout.suffix(400))")

        // The talk: 120 s; slide 1 keeps its own 30 s; the other 90 s split 45.05 : 10.017 as rehearsed → 73.63 and
        // 16.37. Slide 2 entered at 60.05 s, 30 s late against its planned start (30 s): "behind". Then slide 3 at
        // 60.067 + 1/60 … with 26.4 s still ahead of it: the end at this pace is later than 2:00.
        let second = try Self.run(["present", "talk.md", "--simulate", "laptop", "--record-timings", "--duration", "2",
                                   "--keys", "wait:60,Right,wait:5,Right,wait:1"], in: dir)
        #expect(second.status == 0, "\(second.stderr)")
        let lines = second.stdout.split(separator: "\n").map(String.init)
        let onMiddle = try #require(lines.first { $0.contains("next: slide 2 of 3") }, "\(lines)")
        #expect(onMiddle.contains("pace: ▼ 0:30 behind"), "\(onMiddle)")
        let onEnd = try #require(lines.first { $0.contains("next: slide 3 of 3") }, "\(lines)")
        // Slide 3 planned to start at 30 + 73.63 = 103.63 s, entered at 65.07 s: 38.6 s ahead.
        #expect(onEnd.contains("pace: ▲ 0:38 ahead"), "\(onEnd)")
        let talk = try Self.figures(file, run: 1)
        #expect(talk.kind == "talk" && talk.slides.count == 3, "\(talk)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        let budgets = ((object?["runs"] as? [[String: Any]])?[1]["slides"] as? [[String: Any]] ?? []).map { $0["budget"] as? Double ?? -1 }
        #expect(zip(budgets, [30, 73.63, 16.37]).allSatisfy { abs($0 - $1) < 0.01 } && budgets.count == 3, "\(budgets)")

        // The report reads both runs: the budgets the talk used, 0:30, 1:13, 0:16 (73.63 and 16.37 s rounded down).
        let report = try Self.run(["report", "talk.timings.json"], in: dir)
        #expect(report.status == 0, "\(report.stderr)")
        let rows = report.stdout.split(separator: "\n").map(String.init)
        #expect(rows.first { $0.hasPrefix("1 Intro") }?.contains("0:30") == true, "\(rows)")
        #expect(rows.first { $0.hasPrefix("2 Middle") }?.contains("1:13") == true, "\(rows)")
        #expect(rows.first { $0.hasPrefix("3 End") }?.contains("0:16") == true, "\(rows)")
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("talk.timings.png").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("talk.timings.svg").path))
    }

    @Test("a damaged timing file: named, the talk goes on and plans without it; --rehearse with --record-timings is refused")
    func damagedFile() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(#"{"format":"extdisplay-timings","version":1,"runs":[{"kind":"rehearsal","slides":[{"index":1,"fingerprint":"x","steps":[-4]}]}]}"#.utf8)
            .write(to: dir.appendingPathComponent("talk.timings.json"))
        let result = try Self.run(["present", "talk.md", "--simulate", "laptop", "--duration", "2", "--keys", "Right"], in: dir)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("timings: runs[0].slides[0] has a time that is negative"), "\(result.stdout)")
        #expect(result.stdout.contains("pace: "), "the talk is still paced (deck time and an even split): \(result.stdout)")
        let both = try Self.run(["present", "talk.md", "--simulate", "laptop", "--rehearse", "--record-timings"], in: dir)
        #expect(both.status != 0 && both.stderr.contains("give one"), "\(both.stderr)")
    }
}
