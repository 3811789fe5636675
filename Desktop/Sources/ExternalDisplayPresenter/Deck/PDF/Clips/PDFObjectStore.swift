import Foundation

/// A PDF's indirect objects fetched on demand, as `mutool show -g` prints them, for readers that walk a few
/// dictionaries (video annotations): what a pass needs and is not known yet is noted as missing, fetched in
/// batches with ``fetchMissing()``, and the pass runs again. Bounded: at most ``limit`` objects, reference chains
/// of at most ``hopLimit`` (a loop resolves to nothing and ``sawLoop`` says so).
///
/// ```swift
/// let store = PDFObjectStore(limit: 1_000) { numbers in show(numbers) }
/// repeat { value = store.resolve(.reference(12)) } while store.fetchMissing()
/// ```
final class PDFObjectStore {
    /// Most references followed from one value (`1 0 R` naming `2 0 R` naming …).
    static let hopLimit = 16
    /// Objects fetched per `mutool` run (keeps its command line and output small).
    static let batch = 512

    /// Most objects fetched in all.
    let limit: Int
    private let show: ([String]) -> String?
    private var objects: [Int: PDFObject] = [:]
    private var streams: Set<Int> = []
    private var missing: Set<Int> = []
    /// Whether a reference chain was longer than ``hopLimit`` (a loop).
    private(set) var sawLoop = false
    /// Why the store stopped fetching (too many objects, `mutool` failed), if it did.
    private(set) var problem: String?

    /// A store fetching objects with `show` (numbers as text, printing `N 0 obj …` like `mutool show -g`).
    init(limit: Int, show: @escaping ([String]) -> String?) {
        self.limit = limit
        self.show = show
    }

    /// Adds objects already printed (e.g. by a `pages/N` path).
    func add(_ text: String) -> [(number: Int, value: PDFObject)] {
        var parser = PDFObject.Parser(text)
        return MutoolShow.shownObjects(&parser).map { entry in
            objects[entry.number] = entry.value
            if entry.isStream { streams.insert(entry.number) }
            return (entry.number, entry.value)
        }
    }

    /// What `value` stands for: references followed; nil for `null`, for an object not fetched yet (noted as
    /// missing) and for a reference loop.
    func resolve(_ value: PDFObject?) -> PDFObject? {
        var current = value
        for _ in 0...Self.hopLimit {
            guard case .reference(let number)? = current else {
                return current == .keyword("null") ? nil : current
            }
            guard let next = objects[number] else {
                if problem == nil { missing.insert(number) }
                return nil
            }
            current = next
        }
        sawLoop = true
        return nil
    }

    /// `key` of the page dictionary `page`, or of the nearest ancestor in its page tree that has it (at most 32
    /// levels up): a page's boxes and rotation are inherited.
    func inherited(_ key: String, from page: [String: PDFObject]) -> PDFObject? {
        var node = page
        for _ in 0..<32 {
            if let value = node[key] { return value }
            guard let parent = dictionary(node["Parent"]) else { return nil }
            node = parent
        }
        return nil
    }

    /// The dictionary `value` stands for, if it is one.
    func dictionary(_ value: PDFObject?) -> [String: PDFObject]? {
        if case .dictionary(let d)? = resolve(value) { d } else { nil }
    }

    /// The number `value` stands for, if it is a finite one.
    func number(_ value: PDFObject?) -> Double? {
        if case .number(let n)? = resolve(value), n.isFinite { n } else { nil }
    }

    /// The name `value` stands for, if it is one.
    func name(_ value: PDFObject?) -> String? {
        if case .name(let n)? = resolve(value) { n } else { nil }
    }

    /// Whether `value` is (a reference to) a stream: data inside the PDF.
    func isStream(_ value: PDFObject?) -> Bool {
        var current = value
        for _ in 0...Self.hopLimit {
            guard case .reference(let number)? = current else { return false }
            if streams.contains(number) { return true }
            current = objects[number]
        }
        return false
    }

    /// Whether a pass noted objects it could not see yet.
    var hasMissing: Bool { !missing.isEmpty }

    /// Fetches what the last pass missed; false when there was nothing to fetch or the store gave up (then
    /// ``problem`` says why), so the caller's pass is final.
    func fetchMissing() -> Bool {
        guard problem == nil, !missing.isEmpty else { return false }
        let wanted = missing.sorted()
        missing = []
        guard objects.count + wanted.count <= limit else {
            problem = "it refers to over \(limit) objects"
            return false
        }
        for start in stride(from: 0, to: wanted.count, by: Self.batch) {
            let numbers = wanted[start..<min(wanted.count, start + Self.batch)]
            guard let text = show(numbers.map(String.init)) else {
                problem = "mutool could not print its objects"
                return false
            }
            _ = add(text)
            for n in numbers where objects[n] == nil { objects[n] = .keyword("null") }
        }
        return true
    }
}
