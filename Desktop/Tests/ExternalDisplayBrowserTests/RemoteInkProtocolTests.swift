@testable import ExternalDisplayBrowser
import ExtDisplayTestSupport
import ExternalDisplayKit
import Foundation
import Testing

/// Drawing from the remote page (issue 36, item 1): its tool keys and ink messages are checked field by field; a bad
/// one is refused with a reason the page is told (the socket stays open), a stroke number that is not being drawn
/// is refused, and on a real server hostile drawing messages reach nothing while the good ones after them do.
struct RemoteInkProtocolTests {
    static let keys: Set<String> = ["pen", "highlighter", "eraser", "ink-colour", "undo"]

    /// Parses messages in order on one connection's pen.
    static func parse(_ texts: [String]) throws -> [BrowserRemoteMessage] {
        var pen = BrowserRemotePen()
        return try texts.map { try BrowserRemoteMessage.parse($0, keys: keys, pen: &pen) }
    }

    static func refusal(_ message: BrowserRemoteMessage) -> String? {
        if case .refused(let reason) = message { return reason }
        return nil
    }

    @Test("a stroke in three messages, tool keys and commands parse as sent")
    func goodMessages() throws {
        let parsed = try Self.parse([
            #"{"type":"key","name":"highlighter"}"#,
            #"{"type":"ink","stroke":1,"down":true,"points":[0.2,0.5,1,0.25,0.5,0.75]}"#,
            #"{"type":"ink","stroke":1,"points":[0.3,0.5,0.5]}"#,
            #"{"type":"ink","stroke":1,"points":[],"end":"up"}"#,
            #"{"type":"ink","stroke":2,"down":true,"points":[0,1,0],"end":"cancel"}"#,
            #"{"type":"command","name":"next"}"#,
        ])
        #expect(parsed == [
            .key("highlighter"),
            .ink(BrowserRemoteInk(stroke: 1, down: true, points: [.init(x: 0.2, y: 0.5, pressure: 1),
                                                                  .init(x: 0.25, y: 0.5, pressure: 0.75)])),
            .ink(BrowserRemoteInk(stroke: 1, points: [.init(x: 0.3, y: 0.5, pressure: 0.5)])),
            .ink(BrowserRemoteInk(stroke: 1, points: [], end: .up)),
            .ink(BrowserRemoteInk(stroke: 2, down: true, points: [.init(x: 0, y: 1, pressure: 0)], end: .cancel)),
            .command(.next),
        ])
        // The most points a message may carry, in a message the size limit lets through.
        let many = Array(repeating: "0.1234,0.5678,0.99", count: BrowserRemoteInk.maximumPoints).joined(separator: ",")
        let full = #"{"type":"ink","stroke":2147483647,"down":true,"points":["# + many + "]}"
        #expect(full.utf8.count <= BrowserRemoteMessage.maximumSize)
        guard case .ink(let ink) = try Self.parse([full])[0] else { Issue.record("the full message was refused"); return }
        #expect(ink.points.count == BrowserRemoteInk.maximumPoints && ink.stroke == Int(Int32.max))
    }

    @Test("hostile ink and key messages are refused with what is wrong; the socket is not closed for them",
          arguments: [
            (#"{"type":"ink","stroke":1,"down":true,"points":[0.5,1.5,1]}"#, "0…1"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[-0.1,0.5,1]}"#, "0…1"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[1e308,0.5,1]}"#, "0…1"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[0.5,0.5,2]}"#, "pressure"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[0.5,0.5]}"#, "three numbers"),
            (#"{"type":"ink","stroke":1,"down":true,"points":["0.5",0.5,1]}"#, "not three numbers"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[true,0.5,1]}"#, "not three numbers"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[null,0.5,1]}"#, "not three numbers"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[[0.5,0.5,1]]}"#, "three numbers a point"),
            (#"{"type":"ink","stroke":1,"down":true,"points":"0.5,0.5,1"}"#, "array"),
            (#"{"type":"ink","stroke":1,"down":true}"#, "array"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[]}"#, "without a point"),
            (#"{"type":"ink","stroke":0,"down":true,"points":[0.5,0.5,1]}"#, "whole number"),
            (#"{"type":"ink","stroke":-3,"down":true,"points":[0.5,0.5,1]}"#, "whole number"),
            (#"{"type":"ink","stroke":1.5,"down":true,"points":[0.5,0.5,1]}"#, "whole number"),
            (#"{"type":"ink","stroke":1e300,"down":true,"points":[0.5,0.5,1]}"#, "whole number"),
            (#"{"type":"ink","stroke":"1","down":true,"points":[0.5,0.5,1]}"#, "whole number"),
            (#"{"type":"ink","stroke":true,"down":true,"points":[0.5,0.5,1]}"#, "whole number"),
            (#"{"type":"ink","stroke":1,"down":"yes","points":[0.5,0.5,1]}"#, "true or false"),
            (#"{"type":"ink","stroke":1,"down":1,"points":[0.5,0.5,1]}"#, "true or false"),
            (#"{"type":"ink","stroke":1,"down":true,"points":[0.5,0.5,1],"end":"lift"}"#, "\"up\" or \"cancel\""),
            (#"{"type":"ink","stroke":1,"down":true,"points":[0.5,0.5,1],"end":true}"#, "\"up\" or \"cancel\""),
            (#"{"type":"ink","stroke":4,"points":[0.5,0.5,1]}"#, "not being drawn"),
            (#"{"type":"ink","stroke":4,"points":[],"end":"up"}"#, "not being drawn"),
            (#"{"type":"key","name":"quit"}"#, "unknown tool"),
            (#"{"type":"key","name":"Pen"}"#, "unknown tool"),
            (#"{"type":"key","name":"ink-private"}"#, "unknown tool"),
            (#"{"type":"key","name":"\u001b[2Jpen"}"#, "unknown tool"),
            (#"{"type":"key","name":7}"#, "name"),
            (#"{"type":"key"}"#, "name"),
          ])
    func hostileDrawing(text: String, says: String) throws {
        let reason = try #require(Self.refusal(try Self.parse([text])[0]), "\(text) was taken")
        #expect(reason.contains(says), "\(text): \(reason)")
        #expect(!reason.contains("\u{1B}"), "\(reason)")
    }

    @Test("a million points, a huge message, not JSON, an unknown type: errors that close the socket, never traps")
    func oversizeAndMalformed() {
        let million = #"{"type":"ink","stroke":1,"down":true,"points":["#
            + Array(repeating: "0.5,0.5,1", count: 1_000_000).joined(separator: ",") + "]}"
        for text in [million, String(repeating: " ", count: 5_000) + "{}", "not json", "[1,2,3]", "{\"type\":\"draw\"}",
                     "{\"type\":7}", "{\"type\":\"ink\",\"stroke\":1,\"points\":[1e999,0,0]}"] {
            #expect(throws: BrowserProtocolError.self, "\(text.prefix(60))") { try Self.parse([text]) }
        }
        // One point more than a message may carry fits the size limit: refused, the socket stays.
        let tooManyPoints = #"{"type":"ink","stroke":1,"down":true,"points":["#
            + Array(repeating: "0", count: 3 * BrowserRemoteInk.maximumPoints + 3).joined(separator: ",") + "]}"
        #expect(tooManyPoints.utf8.count <= BrowserRemoteMessage.maximumSize)
        #expect(Self.refusal((try? Self.parse([tooManyPoints]))?.first ?? .key(""))?.contains("the most") == true)
    }

    @Test("stroke numbers: moves only on the stroke being drawn; a new stroke finishes the old one; ended is ended")
    func strokeNumbers() throws {
        let parsed = try Self.parse([
            #"{"type":"ink","stroke":5,"down":true,"points":[0.1,0.1,1]}"#,
            #"{"type":"ink","stroke":6,"points":[0.2,0.2,1]}"#,
            #"{"type":"ink","stroke":5,"down":true,"points":[0.1,0.1,1]}"#,
            #"{"type":"ink","stroke":7,"down":true,"points":[0.3,0.3,1]}"#,
            #"{"type":"ink","stroke":5,"points":[0.2,0.2,1]}"#,
            #"{"type":"ink","stroke":7,"points":[0.4,0.4,1],"end":"up"}"#,
            #"{"type":"ink","stroke":7,"points":[0.5,0.5,1]}"#,
        ])
        #expect(parsed.map { Self.refusal($0) == nil } == [true, false, false, true, false, true, false])
        #expect(Self.refusal(parsed[1])?.contains("stroke 5 is") == true)
        #expect(Self.refusal(parsed[2])?.contains("already") == true)
        #expect(Self.refusal(parsed[6])?.contains("none is") == true)
    }

    @Test("the page is told why in a JSON error message, its text printable")
    func errorMessage() throws {
        let text = SlideSite.error("unknown tool '\u{1B}[2J'\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String])
        #expect(object["type"] == "error")
        #expect(object["message"]?.hasPrefix("unknown tool") == true)
        #expect(object["message"]?.contains("\u{1B}") == false && object["message"]?.contains("\n") == false)
    }

    /// A message the server answers (an unknown tool), sent last: its answer says everything before it was read.
    static let marker = #"{"type":"key","name":"end-of-messages"}"#

    @Test("on a real server: hostile drawing messages reach nothing and are answered; the good ones after them arrive")
    @MainActor
    func serverAnswersAndKeepsTheSocket() async throws {
        let (platform, coordinator, _, url) = try await ServerTests.start()
        defer { coordinator.stop() }
        var keys: [String] = [], inks: [BrowserRemoteInk] = [], refused: [String] = [], commands: [BrowserRemoteCommand] = []
        platform.remoteKeyNames = Self.keys
        platform.onRemoteKey = { keys.append($0) }
        platform.onRemoteInk = { inks.append($0) }
        platform.onRemoteRefused = { refused.append($0) }
        platform.onRemoteCommand = { commands.append($0) }
        let port = try #require(Int(url.split(separator: ":").last?.dropLast() ?? ""))
        let messages = [
            #"{"type":"ink","stroke":3,"points":[0.5,0.5,1]}"#,
            #"{"type":"ink","stroke":1,"down":true,"points":[0.5,9,1]}"#,
            #"{"type":"key","name":"quit"}"#,
            #"{"type":"key","name":"pen"}"#,
            #"{"type":"ink","stroke":1,"down":true,"points":[0.2,0.5,1,0.4,0.5,1]}"#,
            #"{"type":"ink","stroke":1,"points":[0.6,0.5,1],"end":"up"}"#,
            #"{"type":"command","name":"next"}"#,
            Self.marker,
        ]
        let target = "/remote/ws?token=\(platform.configuration.remoteToken)"
        // Read until the answer to the last message: every message before it was handled (in order) by then, and
        // closing the connection cannot take an unread one with it.
        let answer = try await VideoRemoteServerTests.exchange(port, target, messages) {
            String(decoding: $0, as: UTF8.self).contains("end-of-messages")
        }
        #expect(answer.status == 101)
        #expect(answer.close == nil, "the socket was closed for a drawing message: \(answer.text.suffix(300))")
        #expect(answer.text.contains("\"message\":\"ink stroke") || answer.text.contains("\"message\":\"unknown tool"),
                "\(answer.text.suffix(300))")
        try await waitUntil("the command after the hostile messages", timeout: 20) { commands == [.next] }
        #expect(keys == ["pen"])
        #expect(inks.map(\.points.count) == [2, 1] && inks.first?.down == true && inks.last?.end == .up)
        // One line for the presenter's output for the connection, however many were refused.
        #expect(refused.count == 1 && refused[0].contains("stroke 3"), "\(refused)")

        // A connection lost in the middle of a stroke: the stroke is ended (what was drawn stays), never left open.
        let drawing = [#"{"type":"ink","stroke":9,"down":true,"points":[0.1,0.1,1,0.2,0.2,1]}"#, Self.marker]
        _ = try await VideoRemoteServerTests.exchange(port, target, drawing) {
            String(decoding: $0, as: UTF8.self).contains("end-of-messages")
        }
        try await waitUntil("the lost stroke ended", timeout: 20) { inks.count == 4 }
        #expect(inks[2].stroke == 9 && inks[2].down && inks[3] == BrowserRemoteInk(stroke: 9, points: [], end: .up))

        // An oversize message (a thousand points, 10 KB) is refused whole: the socket is closed with a reason (1003,
        // or 1009 when the frame itself is over the limit), nothing arrives.
        let huge = #"{"type":"ink","stroke":1,"down":true,"points":["#
            + Array(repeating: "0.5,0.5,1", count: 1_000).joined(separator: ",") + "]}"
        let closed = try await VideoRemoteServerTests.exchange(port, target, [huge])
        #expect(closed.close == 1003 || closed.close == 1009, "\(closed.close.map(String.init) ?? "no close")")
        #expect(closed.text.contains("limit"), "no reason: \(closed.text.suffix(200))")
        #expect(inks.count == 4)
    }
}
