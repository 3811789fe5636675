import Foundation
import Testing

/// The harness itself: scripts/sway-headless.sh brings up the documented layout and its helpers change it, as
/// sway's own IPC reports (a broken harness would make every Wayland test meaningless).
@Suite("Headless sway harness", .serialized)
struct SwayHarnessTests {
    @Test("start gives HEADLESS-1 1920×1080 at (0,0) and HEADLESS-2 1280×720 at (1920,0); add and mode work")
    func layoutAndHelpers() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let start = try sway.outputs()
        #expect(start.map(\.name) == ["HEADLESS-1", "HEADLESS-2"])
        #expect(start.first { $0.name == "HEADLESS-1" }.map { [$0.x, $0.y, $0.width, $0.height] } == [0, 0, 1920, 1080])
        #expect(start.first { $0.name == "HEADLESS-2" }.map { [$0.x, $0.y, $0.width, $0.height] } == [1920, 0, 1280, 720])
        #expect(FileManager.default.fileExists(atPath: "\(sway.runtimeDirectory)/\(sway.waylandDisplay)"))

        let added = try sway.addOutput()
        #expect(added == "HEADLESS-3")
        try sway.setMode(added, width: 1024, height: 768, x: 3200, y: 0)
        let third = try sway.outputs().first { $0.name == added }
        #expect(third.map { [$0.x, $0.y, $0.currentWidth ?? 0, $0.currentHeight ?? 0] } == [3200, 0, 1024, 768])
    }
}
