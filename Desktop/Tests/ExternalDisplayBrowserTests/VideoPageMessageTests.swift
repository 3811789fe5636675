@testable import ExternalDisplayBrowser
import Foundation
import Testing

/// What video pages may send (clock probes only) and how many probes get answers.
@Suite("Video page messages")
struct VideoPageMessageTests {
    @Test func onlyFiniteClockProbesAreRead() throws {
        #expect(try VideoPageMessage.parse(#"{"type":"clock","page":12.5}"#) == .clock(page: 12.5))
        for bad in ["", "{", "[]", "null", #"{"type":"clock"}"#, #"{"type":"clock","page":"12"}"#,
                    #"{"type":"clock","page":true}"#, #"{"type":"clock","page":1e400}"#, #"{"type":"clock","page":1e13}"#,
                    #"{"type":"viewport","width":1,"height":1,"dpr":1}"#, #"{"type":"command","name":"next"}"#] {
            #expect(throws: BrowserProtocolError.self, "\(bad)") { try VideoPageMessage.parse(bad) }
        }
    }

    @Test func tenProbesASecondAreAnsweredAtMost() {
        var limit = ClockProbeLimit()
        let answered = (0..<100).filter { limit.allows(at: 50 + Double($0) * 0.005) }.count   // 100 probes in 0.5 s
        #expect(answered == 10)
        let nextSecond = limit.allows(at: 51.1)
        #expect(nextSecond)
    }
}
