import ExternalDisplayBrowser
import ExternalDisplayKit
import Foundation
import Testing
@testable import ExternalDisplayPresenter
@testable import PresenterRuntime

/// Drawing from the phone remote goes through the one ink model: the remote's tool keys and stroke messages,
/// parsed as the server parses them, give the runtime the same inputs as the console's keys and mouse drag, and so
/// the same strokes on the same board (issue 36, item 1).
@Suite("Drawing from the remote")
@MainActor
struct RemoteDrawingTests {
    static let deck = Deck(title: "t", slides: (1...3).map { Slide(number: $0, title: [InlineRun("S\($0)")]) })

    /// A runtime on a manual clock (its loop is not run: sending an input handles it at once).
    static func runtime() -> PresenterRuntime {
        PresenterRuntime(controller: PresenterController(deck: deck, startedAt: 0), clock: ManualClock())
    }

    /// What the console's mouse sends for a drag through `points` (pressed at the first, lifted at the last),
    /// as SDLConsoleHost does once it has the slide point under the mouse.
    static func mouseDrag(_ points: [InkPoint], on runtime: PresenterRuntime, cancel: Bool = false) {
        guard let first = points.first else { return }
        runtime.send(runtime.controller.inkInput(.begin(first)))
        for point in points.dropFirst() { runtime.send(runtime.controller.inkInput(.move(point))) }
        runtime.send(runtime.controller.inkInput(cancel ? .cancel : .end))
    }

    /// The remote's messages, parsed and checked as the server does, taken to the runtime as the host does.
    static func remote(_ texts: [String], on runtime: PresenterRuntime) throws {
        var pen = BrowserRemotePen()
        let keys = Set(BrowserAudienceHost.remoteKeys.map(\.rawValue))
        for text in texts {
            switch try BrowserRemoteMessage.parse(text, keys: keys, pen: &pen) {
            case .ink(let ink):
                for input in BrowserAudienceHost.inputs(for: ink, controller: runtime.controller) { runtime.send(input) }
            case .key(let name):
                runtime.send(.key(try #require(PresenterKey(rawValue: name))))
            case .zoom(let zoom):
                runtime.send(BrowserAudienceHost.input(for: zoom))
            case .command, .refused:
                Issue.record("\(text) was not taken as drawing")
            }
        }
    }

    @Test func theRemotesStrokesAreTheMousesStrokesOnTheSameBoard() throws {
        // Four decimals, as the page sends them (the nearest double to each decimal, which JSON gives back).
        func point(_ x: Double, _ y: Double, _ pressure: Double) -> InkPoint {
            InkPoint(x: (x * 10_000).rounded() / 10_000, y: (y * 10_000).rounded() / 10_000, pressure: pressure)
        }
        let line = (0...20).map { point(0.1 + 0.04 * Double($0), 0.5 + 0.01 * Double($0 % 3), 1) }
        let curve = (0...12).map { point(0.3 + 0.03 * Double($0), 0.2 + 0.002 * Double($0 * $0), 0.5) }
        func triples(_ points: ArraySlice<InkPoint>) -> String {
            points.map { "\($0.x),\($0.y),\($0.pressure)" }.joined(separator: ",")
        }

        // The console: a pen stroke, H, a highlighter stroke, C, a stroke cancelled by a second finger, Ctrl-Z, I.
        let console = Self.runtime()
        Self.mouseDrag(line, on: console)
        console.send(.press(KeyPress(.character("h"))))
        Self.mouseDrag(curve, on: console)
        console.send(.press(KeyPress(.character("c"))))
        Self.mouseDrag(Array(line.prefix(4)), on: console, cancel: true)
        console.send(.press(KeyPress(.character("z"), control: true)))
        console.send(.press(KeyPress(.character("i"))))
        Self.mouseDrag(Array(curve.prefix(5)), on: console)

        // The remote: the same, its points in batches as the page sends them (one message a frame).
        let phone = Self.runtime()
        try Self.remote([
            #"{"type":"ink","stroke":1,"down":true,"points":["# + triples(line[0..<7]) + "]}",
            #"{"type":"ink","stroke":1,"points":["# + triples(line[7..<15]) + "]}",
            #"{"type":"ink","stroke":1,"points":["# + triples(line[15...]) + #"],"end":"up"}"#,
            #"{"type":"key","name":"highlighter"}"#,
            #"{"type":"ink","stroke":2,"down":true,"points":["# + triples(curve[0...]) + #"],"end":"up"}"#,
            #"{"type":"key","name":"ink-colour"}"#,
            #"{"type":"ink","stroke":3,"down":true,"points":["# + triples(line[0..<4]) + "]}",
            #"{"type":"ink","stroke":3,"points":[],"end":"cancel"}"#,
            #"{"type":"key","name":"undo"}"#,
            #"{"type":"key","name":"pen"}"#,
            #"{"type":"ink","stroke":4,"down":true,"points":["# + triples(curve[0..<5]) + "]}",
            #"{"type":"ink","stroke":4,"points":[],"end":"up"}"#,
        ], on: phone)

        let board = phone.controller.state.ink
        #expect(board == console.controller.state.ink)
        let strokes = board.strokes(onPage: 0, isPrivate: false)
        // The highlighter stroke was undone: the pen line and the short pen curve remain; C changed the
        // highlighter's colour, not the pen's.
        #expect(strokes.map(\.tool) == [.pen, .pen], "\(strokes.map(\.tool))")
        #expect(strokes.first?.points.first == line.first && strokes.first?.points.last == line.last)
        #expect(board.tool == .pen && board.highlighterColourIndex != 4)
    }

    @Test func theRemoteMayOnlySendTheCoresInkKeysAndNeverTheSpeakersMarks() {
        let names = Set(BrowserAudienceHost.remoteKeys.map(\.rawValue))
        #expect(names == ["pen", "highlighter", "eraser", "ink-colour", "ink-width", "ink-clear", "undo", "redo"])
        #expect(BrowserAudienceHost.remoteKeys.allSatisfy { $0.isInkKey })
    }

    /// The remote's pinch reaches the same core input as the console's rectangle: the region covering it; a double
    /// tap's `whole` shows the whole slide; a hostile rectangle is refused by the parser and the zoom kept.
    @Test func theRemotesPinchZoomsThroughTheCore() throws {
        let runtime = Self.runtime()
        try Self.remote([#"{"type":"zoom","rect":[0.25,0.25,0.5,0.5]}"#], on: runtime)
        let zoom = try #require(runtime.controller.state.zoom)
        #expect(zoom.scale == 2 && zoom.x == 0.25 && zoom.y == 0.25, "\(zoom)")
        var pen = BrowserRemotePen()
        for hostile in [#"{"type":"zoom","rect":[0.5,0.5,1e300,0.5]}"#, #"{"type":"zoom","rect":["a",0,1,1]}"#] {
            let parsed = try BrowserRemoteMessage.parse(hostile, keys: [], pen: &pen)
            guard case .refused = parsed else { Issue.record("\(hostile): \(parsed)"); continue }
        }
        #expect(runtime.controller.state.zoom == zoom)
        try Self.remote([#"{"type":"zoom","whole":true}"#], on: runtime)
        #expect(runtime.controller.state.zoom == nil)
    }
}
