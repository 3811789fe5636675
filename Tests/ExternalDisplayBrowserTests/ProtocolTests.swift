@testable import ExternalDisplayBrowser
import ExternalDisplayKit
import Foundation
import Testing

/// What pages and the remote may send, and how `--serve` is spelled: every field checked, every bad input a
/// clear error (the connection is closed with it), never a trap.
struct ProtocolTests {
    @Test("a viewport's mode is its CSS size × devicePixelRatio, rounded")
    func viewportMode() throws {
        #expect(try BrowserViewport(cssWidth: 1280, cssHeight: 720, devicePixelRatio: 1).mode.size
                == PixelSize(width: 1280, height: 720))
        #expect(try BrowserViewport(cssWidth: 1280, cssHeight: 720, devicePixelRatio: 1.5).mode.size
                == PixelSize(width: 1920, height: 1080))
        #expect(try BrowserViewport(cssWidth: 393.3, cssHeight: 851.7, devicePixelRatio: 3).mode.size
                == PixelSize(width: 1180, height: 2555))
    }

    @Test("extreme, invalid and non-finite viewports are refused with the field named",
          arguments: [(Double.nan, 720.0, 1.0, "width"), (1280, .infinity, 1, "height"), (1280, 720, .nan, "dpr"),
                      (1280, 720, 0, "dpr"), (1280, 720, -1, "dpr"), (1280, 720, 100, "dpr"), (0, 720, 1, "width"),
                      (-5, 720, 1, "width"), (20_000, 720, 1, "width"), (1280, 9_000, 2, "height"),
                      (0.2, 720, 1, "width"), (.greatestFiniteMagnitude, 720, 1, "width")])
    func badViewports(width: Double, height: Double, dpr: Double, field: String) {
        #expect {
            _ = try BrowserViewport(cssWidth: width, cssHeight: height, devicePixelRatio: dpr)
        } throws: { ($0 as? BrowserProtocolError)?.description.contains(field) == true }
    }

    @Test("page messages parse; malformed ones are errors, not traps",
          arguments: ["", "{", "[]", "null", "42", "\"viewport\"", "{\"type\":7}", "{\"type\":\"viewport\"}",
                      "{\"type\":\"viewport\",\"width\":\"1280\",\"height\":720,\"dpr\":1}",
                      "{\"type\":\"painted\",\"frame\":-1,\"at\":0}", "{\"type\":\"painted\",\"frame\":1.5,\"at\":0}",
                      "{\"type\":\"painted\",\"frame\":1e20,\"at\":0}", "{\"type\":\"command\",\"name\":\"next\"}",
                      "{\"type\":\"hello\"}", String(repeating: " ", count: 5_000) + "{}",
                      "{\"type\":\"viewport\",\"width\":1e400,\"height\":720,\"dpr\":1}"])
    func malformedPageMessages(text: String) {
        #expect(throws: BrowserProtocolError.self) { try PageMessage.parse(text) }
    }

    @Test("good page messages")
    func goodPageMessages() throws {
        #expect(try PageMessage.parse("{\"type\":\"viewport\",\"width\":800,\"height\":600,\"dpr\":2}")
                == .viewport(try BrowserViewport(cssWidth: 800, cssHeight: 600, devicePixelRatio: 2)))
        #expect(try PageMessage.parse("{\"type\":\"painted\",\"frame\":7,\"at\":1.5}") == .painted(frame: 7, at: 1.5))
    }

    @Test("remote commands: only the four known ones")
    func remoteCommands() throws {
        for command in BrowserRemoteCommand.allCases {
            #expect(try BrowserRemoteCommand.parse("{\"type\":\"command\",\"name\":\"\(command.rawValue)\"}") == command)
        }
        for bad in ["{\"type\":\"command\",\"name\":\"quit\"}", "{\"type\":\"viewport\"}", "{}", "x",
                    "{\"type\":\"command\",\"name\":\"" + String(repeating: "n", count: 300) + "\"}"] {
            #expect(throws: BrowserProtocolError.self) { try BrowserRemoteCommand.parse(bad) }
        }
    }

    @Test("--serve [HOST:]PORT: loopback unless a host is named")
    func listenAddresses() throws {
        let port = try BrowserServerConfiguration(listen: "8080")
        #expect(port.host == "127.0.0.1" && port.port == 8080 && port.isLoopback)
        let any = try BrowserServerConfiguration(listen: "0.0.0.0:9000")
        #expect(any.host == "0.0.0.0" && any.port == 9000 && !any.isLoopback)
        let v6 = try BrowserServerConfiguration(listen: "[::1]:0")
        #expect(v6.host == "::1" && v6.port == 0 && v6.isLoopback)
        for bad in ["", "http", "80800", "-1", ":8080", "host:", "a b:80", "1.2.3.4:x"] {
            #expect(throws: BrowserProtocolError.self) { try BrowserServerConfiguration(listen: bad) }
        }
    }

    @Test("remote tokens: 128 random bits, different every time")
    func tokens() {
        let a = BrowserServerConfiguration.randomToken(), b = BrowserServerConfiguration.randomToken()
        #expect(a.count == 32 && b.count == 32 && a != b)
        #expect(a.allSatisfy { $0.isHexDigit })
    }
}

/// The origin rule for WebSocket upgrades, alone.
struct OriginRuleTests {
    @Test("same-origin pages and non-browser clients are let in; other sites and opaque origins are not")
    func origins() {
        #expect(RequestGuard.originAllowed(origin: nil, host: "127.0.0.1:8080"))
        #expect(RequestGuard.originAllowed(origin: "http://127.0.0.1:8080", host: "127.0.0.1:8080"))
        #expect(RequestGuard.originAllowed(origin: "ws://127.0.0.1", host: "127.0.0.1:8080"))
        #expect(!RequestGuard.originAllowed(origin: "http://evil.example", host: "127.0.0.1:8080"))
        #expect(!RequestGuard.originAllowed(origin: "http://127.0.0.1:9999", host: "127.0.0.1:8080"))
        #expect(!RequestGuard.originAllowed(origin: "null", host: "127.0.0.1:8080"))
        #expect(!RequestGuard.originAllowed(origin: "http://127.0.0.1:8080", host: nil))
        #expect(!RequestGuard.originAllowed(origin: "https://127.0.0.1:8080.evil.example", host: "127.0.0.1:8080"))
    }
}
