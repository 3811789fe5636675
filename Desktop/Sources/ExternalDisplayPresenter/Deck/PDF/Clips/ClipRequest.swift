import Foundation

/// What one annotation of a page asks to play, read from its dictionaries before its file is looked at: a movie
/// annotation (`/Movie /F`), a screen annotation's rendition (`/S /Rendition /R … /C … /D`), or a link that launches
/// or points at a file (`/S /Launch /F`, `/S /URI`).
///
/// ```swift
/// let request = ClipRequest.read(annotation, store: store)  // nil: not about video (a text note, a GoTo link)
/// request?.target                                           // .file("demo.webm", embedded: false)
/// ```
struct ClipRequest: Sendable {
    /// Where the video is, as the PDF names it.
    enum Target: Hashable, Sendable {
        /// A file specification's name (relative to the PDF's folder, or absolute); `embedded`: the PDF also
        /// carries the file's bytes (`/EF`).
        case file(String, embedded: Bool)
        /// A URI (`file://…`, a relative reference, or a web address).
        case uri(String)
        /// Only the file's bytes inside the PDF (an embedded file, a media clip's data stream).
        case embedded
    }

    /// The annotation's kind as messages name it ("movie annotation", "screen annotation", "link").
    var kind: String
    /// Where the video is; nil when the annotation names none (``problems`` says why).
    var target: Target?
    /// How it plays.
    var options = ClipOptions()
    /// The annotation's `/Rect` as numbers (nil when it is not an array of numbers).
    var rect: [Double]?
    /// Whether the annotation is certainly about a video (movie and screen annotations): every failure is said.
    /// A link is said only when its file looks like a video (by its name or pdfpc's options).
    var certain: Bool
    /// What is wrong with it, as sentences for the deck's diagnostics.
    var problems: [String] = []

    /// Most renditions of a selector and media clips of a section followed (a deeper or cyclic tree stops).
    static let depthLimit = 4

    /// The request an annotation dictionary makes, or nil when it is not about video.
    static func read(_ annotation: [String: PDFObject], store: PDFObjectStore) -> ClipRequest? {
        let rect = numbers(annotation["Rect"], store: store)
        switch store.name(annotation["Subtype"]) {
        case "Movie":
            var request = ClipRequest(kind: "movie annotation", rect: rect, certain: true)
            request.readMovie(annotation, store: store)
            return request
        case "Screen":
            var request = ClipRequest(kind: "screen annotation", rect: rect, certain: true)
            guard request.readScreen(annotation, store: store) else { return nil }
            return request
        case "Link":
            var request = ClipRequest(kind: "link", rect: rect, certain: false)
            guard request.readLink(annotation, store: store) else { return nil }
            return request
        default:
            return nil
        }
    }

    // MARK: Movie annotations

    private mutating func readMovie(_ annotation: [String: PDFObject], store: PDFObjectStore) {
        guard let movie = store.dictionary(annotation["Movie"]) else {
            problems.append("it has no /Movie dictionary; not played")
            return
        }
        target = Self.fileSpec(movie["F"], store: store)
        if target == nil { problems.append("its /Movie names no file (/F); not played") }
        switch store.resolve(annotation["A"]) {
        case .keyword("false")?:
            problems.append("it says it is not to be played (/A false); not played")
            target = nil
        case .dictionary(let activation)?:
            if let start = Self.movieTime(activation["Start"], store: store) {
                if let seconds = ClipOptions.time(start) { options.start = seconds } else {
                    problems.append("its start \(ClipOptions.describe(start)) is not a time in seconds; it plays from the beginning")
                }
            }
            options.play(for: Self.movieTime(activation["Duration"], store: store), problems: &problems)
            let mode = store.name(activation["Mode"])
            options.loops = mode == "Repeat" || mode == "Palindrome"
            if let volume = store.number(activation["Volume"]) { options.muted = volume <= 0 }
        default:
            break
        }
    }

    /// A movie time: seconds as a number, a 64-bit integer as an 8-byte string, or `[time scale]` (units per
    /// second). Without a scale the number counts as seconds.
    static func movieTime(_ value: PDFObject?, store: PDFObjectStore) -> Double? {
        func units(_ value: PDFObject?) -> Double? {
            switch store.resolve(value) {
            case .number(let n)?: return n
            case .string(let bytes)? where bytes.count == 8:
                return Double(Int64(bitPattern: bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }))
            default: return nil
            }
        }
        if case .array(let pair)? = store.resolve(value), pair.count == 2 {
            guard let time = units(pair[0]), let scale = store.number(pair[1]), scale > 0 else { return nil }
            let seconds = time / scale
            return seconds.isFinite ? seconds : nil
        }
        return units(value)
    }

    // MARK: Screen annotations

    /// Reads the rendition a screen annotation plays when clicked (`/A`) or when its page opens or is visible
    /// (`/AA /PO`, `/AA /PV`: autoplay). False when it has no rendition action at all.
    private mutating func readScreen(_ annotation: [String: PDFObject], store: PDFObjectStore) -> Bool {
        let triggers = store.dictionary(annotation["AA"])
        let actions: [(PDFObject?, Bool)] = [(triggers?["PO"], true), (triggers?["PV"], true), (annotation["A"], false)]
        var sawAction = false
        for (value, opensWithPage) in actions {
            guard let action = store.dictionary(value) else { continue }
            sawAction = true
            guard store.name(action["S"]) == "Rendition" else { continue }
            let operation = store.number(action["OP"])
            guard operation == nil || operation == 0 || operation == 4 else { continue }
            guard action["R"] != nil else {
                problems.append("its rendition action has no rendition (/R; a script only?); not played")
                return true
            }
            var found = ClipOptions()
            target = readRendition(action["R"], options: &found, store: store, depth: 0)
            options = found
            options.autoplay = opensWithPage
            if target == nil { problems.append("its rendition names no media file; not played") }
            return true
        }
        if sawAction { problems.append("it has no rendition action that plays (/S /Rendition); not played") }
        return sawAction
    }

    /// The file a rendition plays: a media rendition's clip, or the first of a selector's renditions that has one.
    private mutating func readRendition(_ value: PDFObject?, options: inout ClipOptions, store: PDFObjectStore,
                                        depth: Int) -> Target? {
        guard depth < Self.depthLimit, let rendition = store.dictionary(value) else { return nil }
        if store.name(rendition["S"]) == "SR" {
            let choices: [PDFObject]
            if case .array(let items)? = store.resolve(rendition["R"]) { choices = Array(items.prefix(16)) } else {
                choices = rendition["R"].map { [$0] } ?? []
            }
            for choice in choices {
                if let target = readRendition(choice, options: &options, store: store, depth: depth + 1) { return target }
            }
            return nil
        }
        let target = readMediaClip(rendition["C"], options: &options, store: store, depth: depth)
        if let parameters = store.dictionary(rendition["P"]) {
            // Must-honour values first, then best-effort ones.
            let sets = [parameters["MH"], parameters["BE"]].compactMap { store.dictionary($0) }
            if let volume = sets.lazy.compactMap({ store.number($0["V"]) }).first { options.muted = volume <= 0 }
            if let repeats = sets.lazy.compactMap({ store.number($0["RC"]) }).first { options.loops = repeats == 0 }
            if let duration = sets.lazy.compactMap({ Self.timespan(store.dictionary($0["D"])?["T"], store: store) }).first {
                options.play(for: duration, problems: &problems)
            }
        }
        return target
    }

    /// A media clip's file: a clip data dictionary's `/D`, or a section's clip with its begin and end times.
    private mutating func readMediaClip(_ value: PDFObject?, options: inout ClipOptions, store: PDFObjectStore,
                                        depth: Int) -> Target? {
        guard depth < Self.depthLimit, let clip = store.dictionary(value) else { return nil }
        guard store.name(clip["S"]) == "MCS" else { return Self.fileSpec(clip["D"], store: store) }
        let target = readMediaClip(clip["D"], options: &options, store: store, depth: depth + 1)
        let sets = [clip["MH"], clip["BE"]].compactMap { store.dictionary($0) }
        let offset = { (key: String) in
            sets.lazy.compactMap { set -> Double? in
                guard let offset = store.dictionary(set[key]), store.name(offset["S"]) == "T" else { return nil }
                return Self.timespan(offset["T"], store: store)
            }.first
        }
        if let begin = offset("B") {
            if let seconds = ClipOptions.time(begin) { options.start = seconds } else {
                problems.append("its begin \(ClipOptions.describe(begin)) is not a time in seconds; it plays from the beginning")
            }
        }
        if let end = offset("E") {
            if let seconds = ClipOptions.time(end) { options.stop = seconds } else {
                problems.append("its end \(ClipOptions.describe(end)) is not a time in seconds; it plays to its end")
            }
        }
        options.checkRange(&problems)
        return target
    }

    /// A timespan dictionary's seconds (`<< /S /S /V seconds >>`).
    static func timespan(_ value: PDFObject?, store: PDFObjectStore) -> Double? {
        guard let span = store.dictionary(value) else { return nil }
        return store.number(span["V"])
    }

    // MARK: Links

    /// Reads a link that launches a file or points at a URI; false for any other link (GoTo, named actions…).
    private mutating func readLink(_ annotation: [String: PDFObject], store: PDFObjectStore) -> Bool {
        guard let action = store.dictionary(annotation["A"]) else { return false }
        switch store.name(action["S"]) {
        case "Launch":
            let spec = action["F"] ?? store.dictionary(action["Unix"])?["F"] ?? store.dictionary(action["Win"])?["F"]
            target = Self.fileSpec(spec, store: store)
            return target != nil
        case "URI":
            guard case .string(let bytes)? = store.resolve(action["URI"]) else { return false }
            target = .uri(String(decoding: bytes, as: UTF8.self))
            return true
        default:
            return false
        }
    }

    // MARK: Common parts

    /// A file specification: a string, or a dictionary with `/UF`, `/F` or `/Unix` (`/FS /URL`: a URL), or only
    /// embedded bytes (`/EF`, or a stream).
    static func fileSpec(_ value: PDFObject?, store: PDFObjectStore) -> Target? {
        if store.isStream(value) { return .embedded }
        switch store.resolve(value) {
        case .string?: return value.flatMap { store.resolve($0)?.text }.map { .file($0, embedded: false) }
        case .dictionary(let spec)?:
            let embedded = spec["EF"] != nil
            if store.name(spec["FS"]) == "URL", let url = store.resolve(spec["F"])?.text { return .uri(url) }
            for key in ["UF", "F", "Unix"] {
                if let name = store.resolve(spec[key])?.text, !name.isEmpty { return .file(name, embedded: embedded) }
            }
            return embedded ? .embedded : nil
        default:
            return nil
        }
    }

    /// An array of numbers (a `/Rect`), references followed; nil when it is not one (at most 16 items read).
    static func numbers(_ value: PDFObject?, store: PDFObjectStore) -> [Double]? {
        guard case .array(let items)? = store.resolve(value), items.count <= 16 else { return nil }
        let numbers = items.compactMap { store.number($0) }
        return numbers.count == items.count ? numbers : nil
    }
}
