/// Which layer of which page a stroke is on: the room's ink, or the speaker's marks (the console only).
public struct InkLayerKey: Hashable, Sendable, Comparable {
    /// The page (a Beamer overlay step is a page of its own, so strokes belong to the slide and its step).
    public var page: Int
    /// Whether it is the speaker's private marks (never drawn on an audience display nor saved into the PDF).
    public var isPrivate: Bool

    /// Creates a key.
    public init(page: Int, isPrivate: Bool) {
        self.page = page
        self.isPrivate = isPrivate
    }

    /// Page order, the room's layer first.
    public static func < (a: InkLayerKey, b: InkLayerKey) -> Bool {
        (a.page, a.isPrivate ? 1 : 0) < (b.page, b.isPrivate ? 1 : 0)
    }
}

/// What the pen did: the input of the ink layer, from any source (a mouse drag on the console's slide, a finger
/// on a touch screen, a headless `ink:` step).
public enum InkInput: Hashable, Sendable {
    /// The pen touched the slide at a point.
    case begin(InkPoint)
    /// The pen moved to a point.
    case move(InkPoint)
    /// The pen left the slide: the stroke is finished.
    case end
    /// The gesture was taken away (a second finger, the window lost): the growing stroke is dropped.
    case cancel
}

/// The talk's ink: every page's strokes in two layers, the growing stroke, the chosen tool, colour and width,
/// and each layer's undo and redo. A value in ``PresenterState``, changed only by the core.
///
/// Bad input never traps: a point that is not finite is refused (once per stroke, with a message), one off the
/// slide is clamped onto its edge, pressure is clamped to 0…1; a stroke stops growing at ``maximumPoints`` and a
/// layer at ``maximumStrokes``.
public struct InkBoard: Hashable, Sendable {
    /// Strokes by page and layer, in the order drawn.
    public private(set) var layers: [InkLayerKey: [InkStroke]] = [:]
    /// The stroke being drawn and its layer, if the pen is down with the pen or highlighter.
    public private(set) var draft: (key: InkLayerKey, stroke: InkStroke)? {
        get { draftKey.flatMap { k in draftStroke.map { (k, $0) } } }
        set { draftKey = newValue?.key; draftStroke = newValue?.stroke }
    }
    private var draftKey: InkLayerKey?
    private var draftStroke: InkStroke?
    /// The eraser's gesture: the layer it erases and the strokes before it started.
    private var erasing: (key: InkLayerKey, before: [InkStroke])? {
        get { eraseKey.flatMap { k in eraseBefore.map { (k, $0) } } }
        set { eraseKey = newValue?.key; eraseBefore = newValue?.before }
    }
    private var eraseKey: InkLayerKey?
    private var eraseBefore: [InkStroke]?
    private var eraseLast: InkPoint?
    private var refusedThisStroke = false
    private var undoStacks: [InkLayerKey: [InkChange]] = [:]
    private var redoStacks: [InkLayerKey: [InkChange]] = [:]
    /// The tool the pen draws with.
    public internal(set) var tool: InkTool = .pen
    /// The pen's colour, an index into ``InkColour/palette`` (red at first).
    public internal(set) var penColourIndex = 0
    /// The highlighter's colour, an index into ``InkColour/palette`` (yellow at first).
    public internal(set) var highlighterColourIndex = 4
    /// The current tool's colour index (the eraser: the pen's); C cycles it.
    public internal(set) var colourIndex: Int {
        get { tool == .highlighter ? highlighterColourIndex : penColourIndex }
        set { if tool == .highlighter { highlighterColourIndex = newValue } else { penColourIndex = newValue } }
    }
    /// The width, an index into ``widths``.
    public internal(set) var widthIndex = 1
    /// Whether new strokes go to the speaker's marks (console only) instead of the room's ink.
    public internal(set) var drawsPrivately = false

    /// The pen's widths, as fractions of the slide's height; the highlighter draws ``highlighterFactor`` times wider.
    public static let widths = [0.003, 0.006, 0.012]
    /// How much wider the highlighter draws than the pen.
    public static let highlighterFactor = 4.0
    /// The most points one stroke keeps (further points are refused with a message; the stroke stays).
    public static let maximumPoints = 20_000
    /// The most strokes one layer of one page holds.
    public static let maximumStrokes = 5_000
    /// The most undo steps kept per layer.
    public static let undoDepth = 200
    /// The eraser's radius, as a fraction of the slide's height.
    public static let eraserRadius = 0.015
    /// Points closer than this (slide fractions) to the previous one are not kept while drawing.
    public static let minimumStep = 0.0005

    /// An empty board.
    public init() {}

    /// The colour new strokes get.
    public var colour: InkColour {
        InkColour.palette[min(max(colourIndex, 0), InkColour.palette.count - 1)]
    }

    /// The width new strokes get with the current tool.
    public var width: Double {
        Self.widths[min(max(widthIndex, 0), Self.widths.count - 1)] * (tool == .highlighter ? Self.highlighterFactor : 1)
    }

    /// The room's strokes on `page` (what every display and the saved PDF show), the growing one last.
    public func strokes(onPage page: Int, isPrivate: Bool) -> [InkStroke] {
        let key = InkLayerKey(page: page, isPrivate: isPrivate)
        var out = layers[key] ?? []
        if let draft, draft.key == key { out.append(draft.stroke) }
        return out
    }

    /// Every page's room strokes, growing ones aside (what is saved into the PDF), by page.
    public var savedStrokes: [Int: [InkStroke]] {
        var out: [Int: [InkStroke]] = [:]
        for (key, strokes) in layers where !key.isPrivate && !strokes.isEmpty { out[key.page] = strokes }
        return out
    }

    /// Whether any layer holds a stroke.
    public var isEmpty: Bool { layers.values.allSatisfy(\.isEmpty) && draftStroke == nil }

    /// Whether undo (redo) on `page`'s current layer would change something.
    public func canUndo(onPage page: Int) -> Bool { !(undoStacks[key(page)]?.isEmpty ?? true) }

    /// The layer new strokes on `page` go to.
    func key(_ page: Int) -> InkLayerKey { InkLayerKey(page: page, isPrivate: drawsPrivately) }

    /// Applies pen input on `page` of a slide of `aspect` (width / height); returns a line to tell the speaker
    /// when input was refused.
    mutating func handle(_ input: InkInput, onPage page: Int, aspect: Double) -> String? {
        let aspect = aspect.isFinite && aspect > 0.01 && aspect < 100 ? aspect : 16.0 / 9
        switch input {
        case .begin(let raw):
            finish()
            refusedThisStroke = false
            guard let point = Self.clamped(raw) else { return refuse() }
            let key = key(page)
            if tool == .eraser {
                eraseLast = nil
                erasing = (key, layers[key] ?? [])
                erase(at: point, in: key, aspect: aspect)
                return nil
            }
            guard (layers[key]?.count ?? 0) < Self.maximumStrokes else {
                return "this slide holds \(Self.maximumStrokes) strokes already: clear it (K) or undo (Ctrl-Z) to draw more"
            }
            draft = (key, InkStroke(points: [point], tool: tool, colour: colour, width: width))
            return nil
        case .move(let raw):
            guard let point = Self.clamped(raw) else { return refuse() }
            if let erasing {
                erase(at: point, in: erasing.key, aspect: aspect)
                return nil
            }
            guard var stroke = draftStroke else { return nil }
            if let last = stroke.points.last, abs(last.x - point.x) < Self.minimumStep, abs(last.y - point.y) < Self.minimumStep {
                return nil
            }
            guard stroke.points.count < Self.maximumPoints else {
                if refusedThisStroke { return nil }
                refusedThisStroke = true
                return "this stroke reached \(Self.maximumPoints) points and stops growing: lift the pen and draw on"
            }
            stroke.points.append(point)
            draftStroke = stroke
            return nil
        case .end:
            finish()
            return nil
        case .cancel:
            draft = nil
            if let erasing { layers[erasing.key] = erasing.before }
            erasing = nil
            return nil
        }
    }

    /// Finishes the growing stroke (smoothed and simplified onto its layer, undoable) or the eraser's gesture.
    mutating func finish() {
        if let (key, stroke) = draft {
            draft = nil
            var layer = layers[key] ?? []
            let change = InkChange(removedAt: [], removed: [], addedAt: layer.count, added: [stroke.smoothedAndSimplified()])
            change.apply(to: &layer)
            layers[key] = layer
            pushUndo(change, for: key)
        }
        if let (key, before) = erasing {
            erasing = nil
            let change = InkChange.removal(from: before, leaving: layers[key] ?? [])
            if !change.removed.isEmpty { pushUndo(change, for: key) }
        }
    }

    private mutating func refuse() -> String? {
        if refusedThisStroke { return nil }
        refusedThisStroke = true
        return "a pen point that is not a finite number was ignored"
    }

    /// Removes the strokes the eraser touches on its way from its last point to `point` (sampled every half
    /// radius, so a fast move erases what it crossed).
    private mutating func erase(at point: InkPoint, in key: InkLayerKey, aspect: Double) {
        defer { eraseLast = point }
        guard let strokes = layers[key], !strokes.isEmpty else { return }
        var samples = [point]
        if let last = eraseLast {
            let dx = (point.x - last.x) * aspect, dy = point.y - last.y
            let steps = min(1_000, Int(((dx * dx + dy * dy).squareRoot() / (Self.eraserRadius / 2)).rounded(.up)))
            if steps > 1 {
                samples = (0...steps).map { i in
                    let t = Double(i) / Double(steps)
                    return InkPoint(x: last.x + (point.x - last.x) * t, y: last.y + (point.y - last.y) * t)
                }
            }
        }
        let kept = strokes.filter { stroke in
            !samples.contains { stroke.touches($0, radius: Self.eraserRadius, aspect: aspect) }
        }
        if kept.count != strokes.count { layers[key] = kept }
    }

    private mutating func pushUndo(_ change: InkChange, for key: InkLayerKey) {
        var stack = undoStacks[key] ?? []
        stack.append(change)
        if stack.count > Self.undoDepth { stack.removeFirst(stack.count - Self.undoDepth) }
        undoStacks[key] = stack
        redoStacks[key] = nil
    }

    /// Undoes the last change to `page`'s current layer (a stroke, an erasure, a clear); false when none.
    @discardableResult
    mutating func undo(onPage page: Int) -> Bool { step(onPage: page, undoing: true) }

    /// Redoes the last undone change on `page`'s current layer; false when none.
    @discardableResult
    mutating func redo(onPage page: Int) -> Bool { step(onPage: page, undoing: false) }

    /// Takes the last change off one stack, undoes (or redoes) it on the layer and keeps it on the other stack.
    private mutating func step(onPage page: Int, undoing: Bool) -> Bool {
        finish()
        let key = key(page)
        let popped = undoing ? undoStacks[key]?.popLast() : redoStacks[key]?.popLast()
        guard let change = popped else { return false }
        var layer = layers[key] ?? []
        if undoing { change.revert(on: &layer) } else { change.apply(to: &layer) }
        layers[key] = layer
        if undoing { redoStacks[key, default: []].append(change) } else { undoStacks[key, default: []].append(change) }
        return true
    }

    /// Clears `page`'s current layer (undoable); false when it was empty.
    @discardableResult
    mutating func clear(onPage page: Int) -> Bool {
        finish()
        let key = key(page)
        guard let strokes = layers[key], !strokes.isEmpty else { return false }
        pushUndo(InkChange(removedAt: Array(strokes.indices), removed: strokes, addedAt: 0, added: []), for: key)
        layers[key] = []
        return true
    }

    /// Adds strokes read back from a saved PDF onto `page`'s room layer (not undoable: they were there at the
    /// start); each is checked as pen input is.
    public mutating func load(_ strokes: [InkStroke], onPage page: Int) {
        let key = InkLayerKey(page: page, isPrivate: false)
        var layer = layers[key] ?? []
        for var stroke in strokes where layer.count < Self.maximumStrokes {
            stroke.points = stroke.points.prefix(Self.maximumPoints).compactMap(Self.clamped)
            guard !stroke.points.isEmpty, stroke.tool != .eraser, stroke.width.isFinite else { continue }
            stroke.width = min(max(stroke.width, 0.0005), 0.2)
            layer.append(stroke)
        }
        layers[key] = layer
    }

    /// Drops pages past `pageCount` (the deck was read again with fewer pages).
    mutating func keepPages(below pageCount: Int) {
        finish()
        for key in layers.keys where key.page >= pageCount { layers[key] = nil }
        for key in undoStacks.keys where key.page >= pageCount { undoStacks[key] = nil }
        for key in redoStacks.keys where key.page >= pageCount { redoStacks[key] = nil }
    }

    /// The point on the slide, clamped onto it; nil when a coordinate is not finite. Pressure that is not a
    /// finite number in 0…1 is clamped (not finite: 1).
    static func clamped(_ p: InkPoint) -> InkPoint? {
        guard p.x.isFinite, p.y.isFinite else { return nil }
        let pressure = p.pressure.isFinite ? min(max(p.pressure, 0), 1) : 1
        return InkPoint(x: min(max(p.x, 0), 1), y: min(max(p.y, 0), 1), pressure: pressure)
    }
}

/// One undoable change to a layer, kept as what it did rather than as the layer before it (200 copies of a
/// layer of 5,000 strokes were 200 times the ink; a change holds only the strokes it removed or added): the
/// strokes it removed, each with its index in the layer before the change (ascending), then the strokes it
/// appended at `addedAt`.
struct InkChange: Hashable, Sendable {
    /// Where each removed stroke was, ascending, in the layer before the change.
    var removedAt: [Int]
    /// The strokes removed, in the same order.
    var removed: [InkStroke]
    /// Where the added strokes start in the layer after the removals.
    var addedAt: Int
    /// The strokes added.
    var added: [InkStroke]

    /// The change an erasure made: the strokes of `before` that are not in `after` (which keeps the order of the
    /// rest), with their indices.
    static func removal(from before: [InkStroke], leaving after: [InkStroke]) -> InkChange {
        var removedAt: [Int] = [], removed: [InkStroke] = []
        var kept = after.makeIterator()
        var next = kept.next()
        for (index, stroke) in before.enumerated() {
            if let candidate = next, candidate == stroke {
                next = kept.next()
            } else {
                removedAt.append(index)
                removed.append(stroke)
            }
        }
        return InkChange(removedAt: removedAt, removed: removed, addedAt: after.count, added: [])
    }

    /// Does the change on `layer` (the layer as it was before it).
    func apply(to layer: inout [InkStroke]) {
        for index in removedAt.reversed() where layer.indices.contains(index) { layer.remove(at: index) }
        let at = min(max(0, addedAt), layer.count)
        layer.insert(contentsOf: added, at: at)
    }

    /// Undoes the change on `layer` (the layer as it was after it).
    func revert(on layer: inout [InkStroke]) {
        let at = min(max(0, addedAt), layer.count)
        layer.removeSubrange(at..<min(layer.count, at + added.count))
        for (index, stroke) in zip(removedAt, removed) { layer.insert(stroke, at: min(index, layer.count)) }
    }
}
