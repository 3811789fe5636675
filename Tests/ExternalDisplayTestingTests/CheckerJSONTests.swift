@testable import ExternalDisplayTesting
import Testing

/// The checker's own JSON reader.
@Suite struct CheckerJSONTests {
    @Test func parsesTraceLines() throws {
        let line = #" {"t":1.5e1,"type":"event","modes":[{"size":[720,480],"r":59.94}],"ok":true,"no":false,"x":null,"n":-0.5} "#
        let json = try #require(TraceJSON.parse(line))
        #expect(json["t"]?.double == 15)
        #expect(json["type"]?.string == "event")
        #expect(json["modes"]?.array?.first?["size"]?.size == CheckedSize(width: 720, height: 480))
        #expect(json["modes"]?.array?.first?["r"]?.double == 59.94)
        #expect(json["ok"]?.bool == true)
        #expect(json["no"]?.bool == false)
        #expect(json["x"] == .null)
        #expect(json["n"]?.double == -0.5)
    }

    @Test func decodesEscapes() {
        #expect(TraceJSON.parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\né😀"))
        #expect(TraceJSON.parse(#""Café ☕""#) == .string("Café ☕"))
    }

    @Test(arguments: ["", "{", "{\"a\":1,}", "[1,]", "01", "1.", "-", "tru", "{\"a\" 1}", "\"\u{01}\"", "1 2",
                      "{\"a\":1}}", "nul", "\"\\x\"", "[1 2]", "+1", ".5"])
    func rejectsInvalidJSON(_ text: String) {
        #expect(TraceJSON.parse(text) == nil)
    }

    @Test func acceptsEmptyContainersAndDeepNesting() {
        #expect(TraceJSON.parse("{}") == .object([:]))
        #expect(TraceJSON.parse("[ ]") == .array([]))
        #expect(TraceJSON.parse(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) != nil)
        #expect(TraceJSON.parse(String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000)) == nil)
    }
}

extension CheckerJSONTests {
    @Test func compactTextForMessages() {
        #expect(TraceJSON.parse(#"{"b":[1,2.5,null],"a":"x","c":true}"#)?.compact == #"{"a":"x","b":[1,2.5,null],"c":true}"#)
    }
}
