import Foundation
import Testing
@testable import ExternalDisplayPresenter

/// The helper processes (poppler's tools) the presenter runs: pages rendered ahead run at a lower CPU priority
/// than pages a flip waits for.
@Suite("Tool processes")
struct ToolProcessTests {
    /// The scheduling priority (nice value) a child reports for itself, read by the kernel's /proc, not by `nice`.
    func childNiceness(_ niceness: Int) throws -> Int? {
        let result = try ToolProcess.run("sh", ["-c", "cut -d' ' -f19 /proc/$$/stat"], niceness: niceness)
        return Int(String(decoding: result.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func aNicenessRunsTheToolAtThatLowerPriority() throws {
        let own = try childNiceness(0)
        #expect(own != nil)
        #expect(try childNiceness(10) == min(19, (own ?? 0) + 10))
        // Out of range asks are clamped, never refused.
        #expect(try childNiceness(50) == 19)
    }

    @Test func aMissingToolIsStatus127WithOrWithoutNiceness() throws {
        #expect(try ToolProcess.run("edk-no-such-tool", []).status == 127)
        #expect(try ToolProcess.run("edk-no-such-tool", [], niceness: 10).status == 127)
    }
}
