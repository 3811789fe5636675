@testable import ExternalDisplayBrowser
import Foundation
import Testing

/// The remote's zoom messages (issue 36, part 4: a pinch, a two-finger drag, a double tap): checked field by
/// field; a hostile one is refused with a reason for the page (the socket stays open), never thrown.
struct RemoteZoomProtocolTests {
    static func parse(_ text: String) throws -> BrowserRemoteMessage {
        var pen = BrowserRemotePen()
        return try BrowserRemoteMessage.parse(text, keys: [], pen: &pen)
    }

    @Test("a rectangle and the whole slide parse as sent")
    func goodMessages() throws {
        #expect(try Self.parse(#"{"type":"zoom","rect":[0.25,0.3,0.5,0.5]}"#) == .zoom(BrowserRemoteZoom(x: 0.25, y: 0.3, width: 0.5, height: 0.5)))
        #expect(try Self.parse(#"{"type":"zoom","rect":[0,0,1,1]}"#) == .zoom(BrowserRemoteZoom(x: 0, y: 0, width: 1, height: 1)))
        #expect(try Self.parse(#"{"type":"zoom","whole":true}"#) == .zoom(.whole))
        #expect(BrowserRemoteZoom.whole.rectangle == nil)
    }

    @Test("hostile zoom messages are refused with a reason, never thrown")
    func hostileMessages() throws {
        let hostile = [
            #"{"type":"zoom"}"#, #"{"type":"zoom","whole":false}"#, #"{"type":"zoom","whole":1}"#,
            #"{"type":"zoom","whole":"yes"}"#, #"{"type":"zoom","rect":[0.1,0.1,0.5]}"#,
            #"{"type":"zoom","rect":[0.1,0.1,0.5,0.5,0.5]}"#, #"{"type":"zoom","rect":"0,0,1,1"}"#,
            #"{"type":"zoom","rect":[0.1,0.1,0.5,1e300]}"#, #"{"type":"zoom","rect":[-0.1,0.1,0.5,0.5]}"#,
            #"{"type":"zoom","rect":[0.1,0.1,0,0.5]}"#, #"{"type":"zoom","rect":[0.6,0.1,0.5,0.5]}"#,
            #"{"type":"zoom","rect":[true,0.1,0.5,0.5]}"#, #"{"type":"zoom","rect":[null,0.1,0.5,0.5]}"#,
            #"{"type":"zoom","rect":[0.1,0.1,0.5,0.5],"whole":true}"#, #"{"type":"zoom","rect":[{},0.1,0.5,0.5]}"#,
        ]
        for text in hostile {
            let parsed = try Self.parse(text)
            guard case .refused(let reason) = parsed else {
                Issue.record("\(text) was not refused: \(parsed)")
                continue
            }
            #expect(reason.hasPrefix("zoom \"rect\"") || reason.hasPrefix("a zoom message needs"), "\(text): \(reason)")
        }
        // Not JSON, or too large, closes the socket as before (thrown).
        #expect(throws: BrowserProtocolError.self) { try Self.parse(#"{"type":"zoom","rect":[0.1"#) }
        #expect(throws: BrowserProtocolError.self) {
            try Self.parse(#"{"type":"zoom","rect":["# + String(repeating: "0,", count: 3_000) + "0]}")
        }
    }
}
