import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay simulate` of a long scenario: memory does not grow with the number of steps. Before the steps were
/// read, replayed, printed and checked one at a time, the whole scenario was parsed at once, every trace record
/// kept and the checker parsed every line before it began: 96 MB peak for 20,000 steps, 981 MB for 200,000, and
/// 3.3 GB for the 1,000,000 steps a 32 MiB file holds.
@Suite("simulate: memory flat in the number of steps", .serialized)
struct SimulateMemoryTests {
    /// A scenario of `count` steps: a TV, a launch, then background, suspend, resume, foreground a second apart
    /// (each hides or shows the TV's window, so the trace grows with the steps).
    static func scenario(steps count: Int) -> String {
        let cycle = ["background", "suspend", "resume", "foreground"]
        var text = "{\"device\":\"ipad\",\"steps\":[{\"at\":0,\"event\":\"connect\",\"display\":\"tv\","
            + "\"preset\":\"hdmi-tv-720p\"},{\"at\":0,\"event\":\"launch\"}"
        for index in 0..<(count - 2) {
            text += ",{\"at\":\(index + 1),\"event\":\"\(cycle[index % 4])\"}"
        }
        return text + "]}\n"
    }

    /// Runs `extdisplay simulate --format FORMAT` on a scenario of `steps` steps under a 600 s hang guard; returns
    /// the status, the number of lines printed and the peak resident memory in kilobytes (`/usr/bin/time`).
    static func simulate(steps: Int, format: String) throws -> (status: Int32, lines: Int, peakKB: Int) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try scenario(steps: steps).write(to: dir.appendingPathComponent("long.json"), atomically: true, encoding: .utf8)
        let quote = { (s: String) in "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let command = [try Repository.extdisplay().path, "simulate", "--format", format, "long.json"].map(quote)
        let script = "cd \(quote(dir.path)) && timeout -s KILL 600 /usr/bin/time -f %M -o rss "
            + "\(command.joined(separator: " ")) 2>/dev/null | wc -l > lines"
        let status = try runToEnd("/bin/bash", ["-o", "pipefail", "-c", script]).status
        let read = { (name: String) in
            Int(((try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)) ?? "")
                .split(separator: "\n").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? 0
        }
        return (status, read("lines"), read("rss"))
    }

    @Test(arguments: ["ndjson", "text"])
    func memoryDoesNotGrowWithTheNumberOfSteps(format: String) throws {
        let short = try Self.simulate(steps: 20_000, format: format)
        #expect(short.status == 0 && short.peakKB > 0 && short.lines > 20_000)
        let long = try Self.simulate(steps: 200_000, format: format)
        #expect(long.status == 0 && long.lines > 200_000)
        // Ten times the steps may cost the scenario's bytes (6.5 MB, held once) and a little more, not ten
        // times the memory.
        #expect(long.peakKB < short.peakKB + 25_000,
                "peak \(long.peakKB) KB for 200,000 steps, \(short.peakKB) KB for 20,000")
    }
}
