import ExternalDisplayKit
import ExternalDisplayTesting
import Foundation
import Testing

@MainActor
struct BugReportTests {
    @Test func theTVKeepsItsPictureAfterAModeChangeInTheBackground() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Recordings/presenter-displays.json")
        let result = ScenarioRunner(scenario: try ScenarioParser.parse(contentsOf: file)).run()

        #expect(result.violations.isEmpty, "\(result.violations)")
        #expect(result.summary.windows["screen-1"]?.isVisible == true)
    }
}
