@testable import ExternalDisplayBrowser
import ExternalDisplayKit
import Foundation
import Testing

/// Text from the network is data (issue 23 rows f, g, h): printable and bounded before it is printed or sent
/// back in a close frame; the console's lines about pages stay a few a second.
struct NetworkTextTests {
    @Test("controls, escape sequences, line breaks and bidi overrides become '?'; lines are bounded")
    func printable() {
        let hostile = "\u{1B}[2J\u{1B}]0;title\u{07}\nbrowser-1 gone: fake\r\u{9B}31m\u{202E}txt.exe\u{2028}"
        let clean = NetworkText.printable(hostile)
        #expect(!clean.unicodeScalars.contains { NetworkText.isUnsafe($0) })
        #expect(!clean.contains("\n") && !clean.contains("\u{1B}"))
        #expect(NetworkText.printable("plain text, ünïcode 漢字 🎉") == "plain text, ünïcode 漢字 🎉")
        let long = NetworkText.printable(String(repeating: "x", count: 5_000))
        #expect(long.unicodeScalars.count == NetworkText.lineLimit + 1 && long.hasSuffix("…"))
        let marks = NetworkText.printable("a" + String(repeating: "\u{0301}", count: 10_000))
        #expect(marks.unicodeScalars.count <= NetworkText.lineLimit + 1, "one character with 10,000 combining marks")
        #expect(NetworkText.quote(String(repeating: "y", count: 100)).count == NetworkText.quoteLimit + 3)
    }

    @Test("close reasons fit in 123 bytes, cut on a character boundary, for any text",
          arguments: [String(repeating: "é", count: 200), String(repeating: "漢", count: 200), String(repeating: "🎉", count: 200),
                      String(repeating: "👩‍👩‍👧‍👦", count: 40), "a" + String(repeating: "\u{0301}", count: 300),
                      String(repeating: "x", count: 122) + "é", String(repeating: "x", count: 123), "short", ""])
    func closeReasons(text: String) {
        let reason = CloseReason.fitting(text)
        #expect(reason.utf8.count <= CloseReason.maximumBytes, "\(reason.utf8.count) bytes")
        #expect(String(validating: Array(reason.utf8), as: UTF8.self) == reason)
        if text.utf8.count <= CloseReason.maximumBytes && text.unicodeScalars.count <= CloseReason.maximumBytes {
            #expect(reason == text)
        } else {
            #expect(reason.hasSuffix("…"))
        }
    }

    @Test("a page's unknown message type is quoted printable and short in the error")
    func quotedErrors() {
        #expect(throws: BrowserProtocolError.self) { try PageMessage.parse(#"{"type":"\u001b[2J\nfake"}"#) }
        do {
            _ = try PageMessage.parse("{\"type\":\"\\u001b[2J\\n" + String(repeating: "z", count: 500) + "\"}")
        } catch {
            #expect(!error.description.contains("\u{1B}") && !error.description.contains("\n"))
            #expect(error.description.count < 120, "\(error.description.count) characters")
        }
    }

    @Test("300 pages connecting and leaving within a second print at most 8 lines, then one summary")
    func changeLog() {
        var log = ViewerChangeLog()
        var printed: [String] = []
        for index in 0..<300 {
            printed += log.record(.connected, line: "browser-\(index) connected: 1280×720@60", at: Double(index) / 1000, connectedNow: index)
        }
        for index in 0..<300 {
            printed += log.record(.left, line: "browser-\(index) gone: \u{1B}[2J", at: 0.3 + Double(index) / 1000, connectedNow: 300 - index)
        }
        #expect(printed.count == ViewerChangeLog.linesPerWindow)
        #expect(log.isHolding)
        let summary = log.summary(at: 1.0, connectedNow: 0)
        #expect(summary == "pages: 292 connected, 300 left (not listed); 0 connected now")
        #expect(log.summary(at: 1.0, connectedNow: 0) == nil)
        // A new window: lines again.
        #expect(log.record(.connected, line: "browser-900 connected", at: 2.5, connectedNow: 1) == ["browser-900 connected"])
    }
}
