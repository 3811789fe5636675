@testable import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayTesting
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

    @Test("remote commands: only the known ones")
    func remoteCommands() throws {
        for command in BrowserRemoteCommand.allCases {
            #expect(try BrowserRemoteCommand.parse("{\"type\":\"command\",\"name\":\"\(command.rawValue)\"}") == command)
        }
        for bad in ["{\"type\":\"command\",\"name\":\"quit\"}", "{\"type\":\"viewport\"}", "{}", "x",
                    "{\"type\":\"command\",\"name\":\"" + String(repeating: "n", count: 300) + "\"}"] {
            #expect(throws: BrowserProtocolError.self) { try BrowserRemoteCommand.parse(bad) }
        }
    }

    @Test("remote freeze: exactly the name, never a look-alike, a wrong type or an oversized message")
    func hostileFreeze() throws {
        #expect(try BrowserRemoteCommand.parse("{\"type\":\"command\",\"name\":\"freeze\"}") == .freeze)
        // Extra fields are ignored; the command is the name.
        #expect(try BrowserRemoteCommand.parse("{\"name\":\"freeze\",\"type\":\"command\",\"slide\":-1}") == .freeze)
        let padding = String(repeating: " ", count: BrowserRemoteCommand.maximumSize)
        for bad in ["{\"type\":\"command\",\"name\":\"Freeze\"}", "{\"type\":\"command\",\"name\":\"freeze \"}",
                    "{\"type\":\"command\",\"name\":\"freeze\\u0000\"}", "{\"type\":\"command\",\"name\":\"fr\\u0065eze\u{202E}\"}",
                    "{\"type\":\"command\",\"name\":1}", "{\"type\":\"command\",\"name\":[\"freeze\"]}",
                    "{\"type\":\"command\",\"name\":null}", "{\"type\":\"command\",\"name\":{\"freeze\":true}}",
                    "{\"type\":\"Command\",\"name\":\"freeze\"}", "{\"type\":\"freeze\"}", "[\"freeze\"]", "\"freeze\"",
                    "{\"type\":\"command\",\"name\":\"freeze\"" + padding + "}",
                    "{\"type\":\"command\",\"name\":\"freeze\""]{
            #expect(throws: BrowserProtocolError.self, "\(bad.prefix(60))") { try BrowserRemoteCommand.parse(bad) }
        }
        // An unknown name is quoted safely and the known ones are listed, freeze among them.
        do {
            _ = try BrowserRemoteCommand.parse("{\"type\":\"command\",\"name\":\"\\u001b[2Jfreeze\"}")
            Issue.record("an escape sequence parsed as a command")
        } catch {
            #expect(!error.description.contains("\u{1B}"), "\(error)")
            #expect(error.description.contains("freeze") && error.description.contains("pause"), "\(error)")
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

/// The per-page mailbox: latest frame wins, pictures held ahead are shown with a few-byte message, and the
/// server's copy of what the page holds never disagrees with the page.
struct MailboxTests {
    static func frame(_ number: UInt32) -> BrowserFrame { BrowserFrame(number: number, png: Data([UInt8(number & 0xff)])) }

    static func drain(_ viewer: ViewerConnection) -> [String] {
        var out: [String] = []
        while let next = viewer.next() {
            switch next {
            case .frame(let frame): out.append("picture \(frame.number)")
            case .show(let number): out.append("show \(number)")
            case .text(let text): out.append(text)
            }
        }
        return out
    }

    @Test("a picture is sent once and shown with a few-byte message; the newest frame wins; nothing is sent twice")
    func mailbox() {
        let viewer = ViewerConnection(id: "browser-1")
        viewer.offer(Self.frame(1))
        #expect(Self.drain(viewer) == ["picture 1", "show 1"])
        viewer.preload([Self.frame(2), Self.frame(3)])
        #expect(Self.drain(viewer) == ["picture 2", "picture 3"])
        viewer.offer(Self.frame(2))
        #expect(Self.drain(viewer) == ["show 2"], "a held picture is not sent again")
        viewer.offer(Self.frame(2))
        #expect(Self.drain(viewer) == [], "the frame on screen is not shown again")
        // Three frames before the writer runs: only the newest goes out.
        viewer.offer(Self.frame(3))
        viewer.offer(Self.frame(7))
        viewer.offer(Self.frame(8))
        #expect(Self.drain(viewer) == ["picture 8", "show 8"])
        // A set of pictures ahead replaces one not yet sent.
        viewer.preload([Self.frame(9)])
        viewer.preload([Self.frame(10), Self.frame(3)])
        #expect(Self.drain(viewer) == ["picture 10"], "3 is still held; 9 was replaced before it was sent")
    }

    @Test("ink: the newest message wins, after the picture to show and its show, before pictures to hold")
    func inkSlot() {
        let viewer = ViewerConnection(id: "browser-1")
        viewer.send(ink: "{\"type\":\"ink\",\"frame\":1,\"n\":1}")
        viewer.send(ink: "{\"type\":\"ink\",\"frame\":1,\"n\":2}")
        viewer.preload([Self.frame(2)])
        viewer.offer(Self.frame(1))
        #expect(Self.drain(viewer) == ["picture 1", "show 1", "{\"type\":\"ink\",\"frame\":1,\"n\":2}", "picture 2"])
        #expect(Self.drain(viewer) == [], "ink is sent once")
    }

    @Test("without pictures ahead (or on the remote) each frame is sent when it is shown")
    func noPreload() {
        let viewer = ViewerConnection(id: "browser-1", sendsAhead: false)
        viewer.preload([Self.frame(2)])
        #expect(Self.drain(viewer) == [])
        viewer.offer(Self.frame(2))
        #expect(Self.drain(viewer) == ["picture 2", "show 2"])
        let remote = ViewerConnection(id: "remote", holdsPictures: false)
        remote.preload([Self.frame(4)])
        remote.offer(Self.frame(5))
        #expect(Self.drain(remote) == ["picture 5"])
    }

    /// The page's rule, written again from the page's description (not the server's code): pictures in the order
    /// they arrived or were last shown; beyond four, the oldest that is not on screen is dropped.
    struct PageModel {
        var held: [UInt32] = []
        var shown: UInt32?

        mutating func receive(_ number: UInt32) {
            held.removeAll { $0 == number }
            held.append(number)
            var index = 0
            while held.count > 4, index < held.count {
                if held[index] != shown { held.remove(at: index) } else { index += 1 }
            }
        }

        mutating func show(_ number: UInt32) -> Bool {
            guard let index = held.firstIndex(of: number) else { return false }
            held.remove(at: index)
            held.append(number)
            shown = number
            return true
        }
    }

    @Test("random offers and pictures ahead: every show names a picture the page holds, none is sent twice while held, the page ends on the newest frame",
          arguments: 0..<40)
    func randomMirror(seed: UInt64) {
        var random = SeededRandom(state: seed)
        let viewer = ViewerConnection(id: "browser-1")
        var page = PageModel()
        var lastOffered: UInt32?
        for step in 0..<200 {
            switch random.next() % 3 {
            case 0:
                let number = UInt32(random.next() % 12)
                viewer.offer(Self.frame(number))
                lastOffered = number
            case 1:
                let count = Int(random.next() % 4)
                viewer.preload((0..<count).map { _ in Self.frame(UInt32(random.next() % 12)) })
            default:
                // The writer sends some (or all) of what is queued.
                var budget = random.next() % 4
                while budget > 0, let next = viewer.next() {
                    budget -= 1
                    switch next {
                    case .frame(let frame):
                        #expect(!page.held.contains(frame.number),
                                "seed \(seed) step \(step): picture \(frame.number) sent while the page holds it")
                        page.receive(frame.number)
                    case .show(let number):
                        let held = page.held
                        let shown = page.show(number)
                        #expect(shown, "seed \(seed) step \(step): show \(number) of a picture not held \(held)")
                    case .text: break
                    }
                }
            }
        }
        while let next = viewer.next() {
            switch next {
            case .frame(let frame): page.receive(frame.number)
            case .show(let number):
                let shown = page.show(number)
                #expect(shown, "seed \(seed): final show \(number) not held")
            case .text: break
            }
        }
        #expect(page.shown == lastOffered, "seed \(seed): the page ends on the newest frame offered")
    }
}
