import ExtDisplayTestSupport
import Foundation
import Testing

/// `extdisplay simulate` as a user runs it: the built binary, real files, exit statuses and messages.
struct SimulateCommandTests {
    static let repository = Repository.root

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(_ arguments: [String]) throws -> Run {
        let result = try runToEnd(try Repository.extdisplay().path, arguments, directory: repository)
        return Run(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    static func scenario(_ json: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static var examples: [String] {
        let folder = repository.appendingPathComponent("Examples/Scenarios")
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { "Examples/Scenarios/" + $0 }
    }

    @Test func thereAreAtLeastSixExampleScenarios() {
        #expect(Self.examples.count >= 6)
    }

    @Test(arguments: examples)
    func everyExampleHoldsEveryInvariant(path: String) throws {
        let text = try Self.run(["simulate", path])
        #expect(text.status == 0, "\(text.stdout.suffix(2000))")
        #expect(text.stdout.contains("invariants: all held"))
        let ndjson = try Self.run(["simulate", path, "--format", "ndjson"])
        #expect(ndjson.status == 0)
        let lines = ndjson.stdout.split(separator: "\n")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.first?["type"] as? String == "configuration")
        #expect(objects.last?["type"] as? String == "summary")
        #expect(objects.allSatisfy { $0["t"] is Double && $0["type"] is String })
        #expect((objects.last?["violations"] as? [Any])?.isEmpty == true)
    }

    @Test(arguments: [
        (#"{"steps": [{"at": 0, "event": "teleport"}]}"#, "step 0, field 'event': unknown event \"teleport\""),
        (#"{"steps": [{"at": 0, "event": "connect", "display": "x", "preset": "crt-1983"}]}"#,
         "step 0, field 'preset': unknown preset \"crt-1983\""),
        (#"{"steps": [{"at": 0, "event": "launch"}, {"at": 1, "event": "disconnect"}]}"#, "step 1, field 'display': missing"),
        (#"{"steps": [{"at": 5, "event": "launch"}, {"at": 1, "event": "background"}]}"#, "step 1, field 'at': time goes backwards"),
        (#"{"steps": [{"at": 0, "event": "launch"},]"#, "not valid JSON"),
        (#"{"device": "watch", "steps": []}"#, "field 'device': unknown device \"watch\""),
        (#"{"configuration": {"overscanCompensation": "zoom"}, "steps": []}"#, "field 'configuration.overscanCompensation'"),
        (#"{"steps": [{"event": "launch"}]}"#, "step 0, field 'at': missing"),
        (#"{"steps": [{"at": 0, "event": "connect", "display": "x", "modes": [[1920]]}]}"#, "step 0, field 'modes[0]'"),
        // Issue 14.7 / 13: misspelt fields, steps after end, numbers outside their documented ranges.
        (#"{"steps": [{"at": 0, "event": "connect", "display": "tv", "preset": "hdmi-tv-1080p", "curent": [1280, 720]}]}"#,
         "step 0, field 'curent': unknown field 'curent'; did you mean 'current'?"),
        (#"{"steps": [{"at": 0, "event": "launch"}, {"at": 1, "event": "end"}, {"at": 2, "event": "background"}]}"#,
         "step 2: comes after the \"end\" step (step 1)"),
        (#"{"steps": [{"at": 1e10, "event": "launch"}]}"#, "step 0, field 'at': must be a number of seconds in 0…1e9"),
        (#"{"steps": [{"at": 0, "event": "consumerRate", "consumer": "device", "fps": 1e6}]}"#,
         "step 0, field 'fps': must be a number in 0…1000"),
        (#"{"steps": [{"at": 0, "event": "renderCost", "consumer": "device", "ms": 1e5}]}"#,
         "step 0, field 'ms': must be a number in 0…10000"),
        (#"{"stpes": []}"#, "field 'stpes': unknown field 'stpes'; did you mean 'steps'?"),
        (#"{"configuration": {"background": "keep", "contentReady": true}, "steps": []}"#,
         "field 'configuration.contentReady': unknown field"),
        (#"{"steps": [{"at": 0, "event": "connect", "display": "x", "modes": [{"size": [640, 480], "refesh": 50}]}]}"#,
         "step 0, field 'modes[0].refesh': unknown field 'refesh'; did you mean 'refresh'?"),
    ])
    func invalidScenarioExitsWithStatus2AndSaysWhere(json: String, message: String) throws {
        let run = try Self.run(["simulate", try Self.scenario(json)])
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test func badInputAtRunTimeIsADiagnosticNotAnInvalidFile() throws {
        let path = try Self.scenario(#"""
        {"steps": [{"at": 0, "event": "launch"},
                   {"at": 1, "event": "disconnect", "display": "ghost"},
                   {"at": 2, "event": "connect", "display": "tv", "modes": []},
                   {"at": 3, "event": "resume"},
                   {"at": 4, "event": "suspend"},
                   {"at": 5, "event": "connect", "display": "tv", "preset": "hdmi-tv-720p"},
                   {"at": 6, "event": "connect", "display": "tv", "preset": "hdmi-tv-720p"},
                   {"at": 7, "event": "requestMode", "display": "tv", "mode": [3840, 2160]}]}
        """#)
        let run = try Self.run(["simulate", path, "--format", "ndjson"])
        #expect(run.status == 0)
        let diagnostics = run.stdout.split(separator: "\n").filter { $0.contains(#""type":"diagnostic""#) }
        #expect(diagnostics.count == 6)
        for (line, step) in zip(diagnostics, [1, 2, 3, 4, 6, 7]) { #expect(line.contains(#""step":\#(step)"#), "\(line)") }
        #expect(run.stdout.contains(#""connected":["tv"]"#))
    }

    @Test func missingFileIsAClearError() throws {
        let run = try Self.run(["simulate", "/nonexistent/scenario.json"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("cannot read /nonexistent/scenario.json"))
    }
}
