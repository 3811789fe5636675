@testable import ExternalDisplayBrowser
import ExternalDisplayTesting
import Foundation
import Testing

/// What video pages may send (clock probes; controls from the remote) and how many get answers.
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

    @Test func controlsBecomeRemoteCommandsOrAVolume() throws {
        let cases: [(String, BrowserVideoRequest)] = [
            (#"{"type":"control","action":"play"}"#, .command(.play)),
            (#"{"type":"control","action":"pause"}"#, .command(.pause)),
            (#"{"type":"control","action":"toggle"}"#, .command(.togglePlayPause)),
            (#"{"type":"control","action":"seekBy","value":-10}"#, .command(.seek(by: -10))),
            (#"{"type":"control","action":"seekTo","value":30.5}"#, .command(.changePosition(to: 30.5))),
            (#"{"type":"control","action":"rate","value":1.5}"#, .command(.changeRate(to: 1.5))),
            // Out of the core's range but finite: the core decides (it clamps volumes, refuses rates it lacks).
            (#"{"type":"control","action":"rate","value":7}"#, .command(.changeRate(to: 7))),
            (#"{"type":"control","action":"volume","value":3}"#, .volume(3)),
        ]
        for (text, request) in cases { #expect(try VideoPageMessage.parse(text) == .control(request), "\(text)") }
    }

    @Test func hostileControlsAreRefusedWithAReason() {
        let bad = [#"{"type":"control"}"#, #"{"type":"control","action":"eject"}"#, #"{"type":"control","action":"seekBy"}"#,
                   #"{"type":"control","action":"seekBy","value":"5"}"#, #"{"type":"control","action":"seekTo","value":null}"#,
                   #"{"type":"control","action":"rate","value":true}"#, #"{"type":"control","action":"volume","value":1e400}"#,
                   #"{"type":"control","action":"seekTo","value":-1e400}"#, #"{"type":"control","action":"seekTo","value":2e9}"#,
                   #"{"type":"control","action":5}"#, #"{"type":"control","action":["play"]}"#, #"{"type":["control"]}"#,
                   #"{"type":"control","action":"play\u0000"}"#]
        for text in bad {
            #expect(throws: BrowserProtocolError.self, "\(text)") { try VideoPageMessage.parse(text) }
        }
    }

    /// 3,000 random control messages a run (`CONTROL_SEED=N` repeats one): actions valid and not, values of any
    /// magnitude (finite, beyond a double, beyond 1e9, strings, `null`, `true`). The oracle is Swift's own
    /// `Double(String)`, not the parser's JSON decoder: a control needing a value is accepted exactly when its
    /// action is known and the value is a finite number of at most 1e9, with that value. Non-zero values that
    /// underflow (below 2.2e-308 in magnitude, none a control means) are refused by Foundation's JSON decoder; the
    /// oracle leaves them out (refusing them is safe: the socket closes with a reason).
    @Test func randomControlsAreAcceptedOnlyWithFiniteValues() {
        let seed = UInt64(ProcessInfo.processInfo.environment["CONTROL_SEED"] ?? "") ?? UInt64.random(in: 0...UInt64.max)
        var random = SeededRandom(state: seed)
        let valued: [String: (Double) -> BrowserVideoRequest] = [
            "seekBy": { .command(.seek(by: $0)) }, "seekTo": { .command(.changePosition(to: $0)) },
            "rate": { .command(.changeRate(to: $0)) }, "volume": { .volume($0) }]
        let actions = Array(valued.keys) + ["play", "eject", "", "SEEKTO", "seek"]
        for round in 0..<3_000 {
            let action = actions[Int.random(in: 0..<actions.count, using: &random)]
            let token: String
            var underflows = false
            switch Int.random(in: 0..<6, using: &random) {
            case 0: token = ["\"5\"", "null", "true", "[]", "{}"][Int.random(in: 0..<5, using: &random)]
            default:
                let mantissa = Double(Int.random(in: -999_999...999_999, using: &random)) / 1_000
                token = "\(mantissa)e\(Int.random(in: -330...330, using: &random))"
                underflows = mantissa != 0 && !(Double(token).map { $0.isNormal } ?? true)
            }
            let text = #"{"type":"control","action":""# + action + #"","value":"# + token + "}"
            let parsed = try? VideoPageMessage.parse(text)
            let number = Double(token)
            if let make = valued[action], let number, number.isFinite, abs(number) <= 1e9, !underflows {
                guard case .control(let request) = parsed else {
                    Issue.record("CONTROL_SEED=\(seed) round \(round): \(text) refused")
                    continue
                }
                let expected = make(number)
                let close: Bool = switch (request, expected) {
                case (.volume(let a), .volume(let b)): abs(a - b) <= 1e-12 * max(1, abs(b))
                case (.command(.seek(by: let a)), .command(.seek(by: let b))),
                     (.command(.changePosition(to: let a)), .command(.changePosition(to: let b))),
                     (.command(.changeRate(to: let a)), .command(.changeRate(to: let b))): abs(a - b) <= 1e-12 * max(1, abs(b))
                default: false
                }
                #expect(close, "CONTROL_SEED=\(seed) round \(round): \(text) → \(request), not \(expected)")
            } else if action != "play", !underflows {
                #expect(parsed == nil, "CONTROL_SEED=\(seed) round \(round): \(text) accepted as \(String(describing: parsed))")
            }
        }
    }

    @Test func tenProbesASecondAreAnsweredAtMost() {
        var limit = ClockProbeLimit()
        let answered = (0..<100).filter { limit.allows(at: 50 + Double($0) * 0.005) }.count   // 100 probes in 0.5 s
        #expect(answered == 10)
        let nextSecond = limit.allows(at: 51.1)
        #expect(nextSecond)
        var controls = ClockProbeLimit(perSecond: 20)
        #expect((0..<100).filter { controls.allows(at: 7 + Double($0) * 0.001) }.count == 20)
    }
}
