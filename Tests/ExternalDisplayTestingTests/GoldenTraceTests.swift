import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing

/// Golden traces of the example scenarios: the simulator must reproduce them byte for byte, and the
/// independent checker must find nothing wrong in them (a golden file is never trusted on its own).
@MainActor
struct GoldenTraceTests {
    nonisolated static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    nonisolated static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    nonisolated static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("Examples/Scenarios").path)) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    @Test func everyExampleHasAGoldenTrace() {
        #expect(Self.names.count >= 6)
        for name in Self.names {
            #expect(FileManager.default.fileExists(atPath: Self.golden.appendingPathComponent(name + ".ndjson").path), "\(name)")
        }
    }

    @Test(arguments: names)
    func simulatorReproducesTheGoldenTrace(name: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.repository.appendingPathComponent("Examples/Scenarios/\(name).json"))
        let expected = try String(contentsOf: Self.golden.appendingPathComponent(name + ".ndjson"), encoding: .utf8)
        let actual = ScenarioRunner(scenario: scenario).run().ndjson
        let expectedLines = expected.split(separator: "\n"), actualLines = actual.split(separator: "\n")
        for (index, (e, a)) in zip(expectedLines, actualLines).enumerated() where e != a {
            Issue.record("\(name) line \(index + 1) differs:\n  golden: \(e)\n  now:    \(a)")
            break
        }
        #expect(expectedLines.count == actualLines.count, "\(name): \(expectedLines.count) golden lines, \(actualLines.count) now")
    }

    @Test(arguments: names)
    func goldenTraceHoldsEveryInvariant(name: String) throws {
        let text = try String(contentsOf: Self.golden.appendingPathComponent(name + ".ndjson"), encoding: .utf8)
        #expect(TraceChecker().check(ndjson: text).map(\.description) == [])
    }
}
