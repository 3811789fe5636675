import Foundation
import Testing

/// The tutorial's test code is this target's `TutorialTests.swift`, byte for byte, so it compiles and passes
/// with the package as it is; the tutorial's first testing step is the same file without its second test.
struct TutorialCodeTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let resources = tests.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ExternalDisplayUIKit/ExternalDisplayUIKit.docc/Resources")

    static func read(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    @Test func theTutorialsTestsAreTheOnesThatRun() throws {
        let running = try Self.read(Self.tests.appendingPathComponent("TutorialTests.swift"))
        let final = try Self.read(Self.resources.appendingPathComponent("tutorial-05-test-unplug.swift"))
        let first = try Self.read(Self.resources.appendingPathComponent("tutorial-05-test.swift"))
        #expect(running == final)
        let firstTest = try #require(final.range(of: "\n    @Test func unplugging"))
        #expect(first == final[..<firstTest.lowerBound] + "}\n")
    }
}
