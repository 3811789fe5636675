import Foundation

/// A scenario read one step at a time, for long scenarios: memory stays flat in the number of steps (but for the
/// document's own bytes).
///
/// The document is checked whole when the stream is made — every step, with the messages and in the order of
/// ``ScenarioParser`` — so a bad file fails before anything runs; ``steps`` then reads the steps again, a chunk
/// at a time, as they are replayed.
///
/// ```swift
/// let stream = try ScenarioStream(data)
/// let result = ScenarioRunner(scenario: stream.header).run(steps: stream.steps) { print($0) }
/// ```
public struct ScenarioStream: Sendable {
    /// The device, configuration and mode selection; its `steps` are empty (they are in ``steps``).
    public let header: Scenario
    /// The steps, in time order, read as they are iterated.
    public let steps: ScenarioSteps

    /// Reads and checks scenario JSON text.
    public init(_ data: Data) throws(ScenarioError) {
        try self.init(bytes: [UInt8](data))
    }

    /// Reads and checks scenario JSON text given as its bytes.
    public init(bytes: [UInt8]) throws(ScenarioError) {
        let scan = ScenarioScan(bytes: bytes)
        // Anything the scanner does not recognise (a syntax error, another encoding, a repeated field) is read the
        // reference way, whole: the same verdict, at the old cost.
        guard let members = scan.topLevel(), let document = Self.check(scan, members) else {
            let scenario = try ScenarioParser.parseWhole(Data(bytes))
            header = Scenario(device: scenario.device, configuration: scenario.configuration,
                              modeSelectionJSON: scenario.modeSelectionJSON, steps: [])
            steps = ScenarioSteps(source: .parsed(scenario.steps))
            return
        }
        let stepsValue = members.first { $0.key == "steps" }?.value
        let isArray = stepsValue.map { bytes[$0.lowerBound] == UInt8(ascii: "[") }
        header = try ScenarioParser.header(document.object, keys: members.map(\.key), steps: isArray)
        if let error = document.stepError { throw error }
        steps = ScenarioSteps(source: .bytes(bytes, stepsValue ?? 0..<0))
    }

    /// Parses every value but the steps, and checks every step; nil when some part is not valid JSON.
    private static func check(_ scan: ScenarioScan, _ members: [(key: String, value: Range<Int>)])
        -> (object: [String: Any], stepError: ScenarioError?)? {
        var object: [String: Any] = [:]
        var stepError: ScenarioError?
        for (key, range) in members {
            if key == "steps", scan.bytes[range.lowerBound] == UInt8(ascii: "[") {
                // Syntax first (a JSON error anywhere outranks a bad step), then the first bad step.
                var order = ScenarioParser.StepOrder()
                var chunks = ScenarioChunks(scan: scan, array: range)
                var index = 0
                while let chunk = chunks.next() {
                    guard let values = chunk else { return nil }
                    for value in values {
                        if stepError == nil {
                            do throws(ScenarioError) { _ = try order.read(value, index: index) } catch { stepError = error }
                        }
                        index += 1
                    }
                }
                continue
            }
            guard let value = scan.value(range) else { return nil }
            object[key] = value
        }
        return (object, stepError)
    }
}

/// The steps of a ``ScenarioStream``.
public struct ScenarioSteps: Sequence, Sendable {
    enum Source: Sendable {
        /// Steps already read.
        case parsed([ScenarioStep])
        /// The document's bytes and the range of its `steps` array, checked when the stream was made.
        case bytes([UInt8], Range<Int>)
    }

    let source: Source

    /// Starts reading the steps.
    public func makeIterator() -> Iterator {
        switch source {
        case .parsed(let steps): Iterator(parsed: steps.makeIterator(), chunks: nil)
        case .bytes(let bytes, let range):
            Iterator(parsed: nil, chunks: ScenarioChunks(scan: ScenarioScan(bytes: bytes), array: range))
        }
    }

    /// Reads the steps in order.
    public struct Iterator: IteratorProtocol {
        var parsed: IndexingIterator<[ScenarioStep]>?
        var chunks: ScenarioChunks?
        var pending: [ScenarioStep] = []
        var position = 0
        var index = 0

        /// The next step, or nil after the last.
        public mutating func next() -> ScenarioStep? {
            if parsed != nil { return parsed?.next() }
            if position == pending.count {
                // The document was checked whole when the stream was made: each chunk reads as it did then.
                guard let values = chunks?.next() ?? nil else { return nil }
                pending = []
                for value in values {
                    guard let fields = value as? [String: Any],
                          let step = try? StepReader(index: index, fields: fields).read() else { return nil }
                    pending.append(step)
                    index += 1
                }
                position = 0
                if pending.isEmpty { return nil }
            }
            position += 1
            return pending[position - 1]
        }
    }
}

/// The elements of a JSON array in the document, parsed a chunk at a time.
struct ScenarioChunks {
    /// Elements parsed at once.
    static let chunkSize = 1024

    let scan: ScenarioScan
    let array: Range<Int>
    var position: Int
    var finished = false

    init(scan: ScenarioScan, array: Range<Int>) {
        self.scan = scan
        self.array = array
        position = array.isEmpty ? array.upperBound : scan.skipSpace(array.lowerBound + 1)
        if array.isEmpty || (position < array.upperBound && scan.bytes[position] == UInt8(ascii: "]")) {
            finished = true
        }
    }

    /// The next chunk's values; nil after the last, `.some(nil)` when the array is not valid JSON.
    mutating func next() -> [Any]?? {
        guard !finished else { return nil }
        let bytes = scan.bytes
        var count = 0
        let start = position
        var end = position
        while count < Self.chunkSize {
            guard let valueEnd = scan.valueEnd(position), valueEnd <= array.upperBound else { return .some(nil) }
            end = valueEnd
            count += 1
            let after = scan.skipSpace(valueEnd)
            guard after < array.upperBound else { return .some(nil) }
            if bytes[after] == UInt8(ascii: ",") {
                position = scan.skipSpace(after + 1)
            } else if bytes[after] == UInt8(ascii: "]"), after + 1 == array.upperBound {
                finished = true
                break
            } else {
                return .some(nil)
            }
        }
        // The chunk's elements and the separators between them, as an array in an object: as deep as in the
        // document (Foundation limits the depth).
        let text = Array("{\"steps\":[".utf8) + bytes[start..<end] + Array("]}".utf8)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(text), options: [])) as? [String: Any],
              let values = object["steps"] as? [Any], values.count == count else { return .some(nil) }
        return .some(values)
    }
}

/// Finds the extent of JSON values without building them; what it recognises is then parsed by Foundation.
struct ScenarioScan {
    let bytes: [UInt8]

    func skipSpace(_ start: Int) -> Int {
        var i = start
        while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 }
        return i
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// Ends a number or literal.
    static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: "{"),
             UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: ":"): true
        default: false
        }
    }

    /// The end of the string starting at `start` (a quote), after its closing quote.
    func stringEnd(_ start: Int) -> Int? {
        var i = start + 1
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\") { i += 2; continue }
            if bytes[i] == UInt8(ascii: "\"") { return i + 1 }
            i += 1
        }
        return nil
    }

    /// The end of the value starting at `start`: brackets are matched, not checked (Foundation checks them).
    func valueEnd(_ start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var i = start
            while i < bytes.count {
                switch bytes[i] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(i) else { return nil }
                    i = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return i + 1 }
                default: break
                }
                i += 1
            }
            return nil
        default:
            var i = start
            while i < bytes.count, !Self.isDelimiter(bytes[i]) { i += 1 }
            return i > start ? i : nil
        }
    }

    /// One value of the top-level object parsed by Foundation, in an array: as deep as in the document.
    func value(_ range: Range<Int>) -> Any? {
        let text = [UInt8(ascii: "[")] + bytes[range] + [UInt8(ascii: "]")]
        guard let array = (try? JSONSerialization.jsonObject(with: Data(text), options: [])) as? [Any],
              array.count == 1 else { return nil }
        return array[0]
    }

    /// The top-level object's fields and the ranges of their values; nil unless the document is one object of
    /// distinct fields.
    func topLevel() -> [(key: String, value: Range<Int>)]? {
        var i = skipSpace(0)
        guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
        i = skipSpace(i + 1)
        var members: [(key: String, value: Range<Int>)] = []
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { return skipSpace(i + 1) == bytes.count ? members : nil }
        while true {
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\""), let keyEnd = stringEnd(i),
                  let key = value(i..<keyEnd) as? String, !members.contains(where: { $0.key == key }) else { return nil }
            i = skipSpace(keyEnd)
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return nil }
            i = skipSpace(i + 1)
            guard let end = valueEnd(i) else { return nil }
            members.append((key, i..<end))
            i = skipSpace(end)
            guard i < bytes.count else { return nil }
            if bytes[i] == UInt8(ascii: ",") {
                i = skipSpace(i + 1)
            } else if bytes[i] == UInt8(ascii: "}") {
                return skipSpace(i + 1) == bytes.count ? members : nil
            } else {
                return nil
            }
        }
    }
}
