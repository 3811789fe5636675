import DesktopFiles
import ExternalDisplayMedia
import Foundation

/// Finds the local video file a ``ClipRequest`` names: relative names resolve against the PDF's folder (`..` may
/// leave it, as a talk's videos often sit beside its folder; only a file that is a video by its first bytes plays,
/// so nothing else is ever read past its signature), `file://` URIs are local paths, web addresses are not played.
/// pdfpc's options after a `?` in the name are read (``ClipOptions/pdfpcQuery(_:)``).
///
/// ```swift
/// ClipLocator.locate(.file("demo.webm?loop", embedded: false), certain: false, folder: talkFolder)
/// // .clip(URL(fileURLWithPath: "/talk/demo.webm"), ClipOptions(loops: true), problems: [])
/// ```
enum ClipLocator {
    /// What came of a request.
    enum Outcome: Hashable, Sendable {
        /// A local video file, how it plays, and what was wrong in its options.
        case clip(URL, ClipOptions, problems: [String])
        /// Not played; the sentence says why and what to do.
        case problem(String)
        /// Not played and not worth a word (a link to a web page, to a document).
        case ignored
    }

    /// File name extensions of video files: a link to such a name is meant to play, so its failures are said.
    static let videoExtensions: Set<String> = ["webm", "mkv", "mp4", "m4v", "mov", "avi", "ogv", "ogg", "mpg", "mpeg",
                                               "ts", "mts", "m2ts", "wmv", "flv", "3gp"]

    /// Where `target` plays from, with `options` from the annotation (pdfpc's query options take precedence).
    static func locate(_ target: ClipRequest.Target, options: ClipOptions = ClipOptions(), certain: Bool,
                       folder: URL) -> Outcome {
        switch target {
        case .embedded:
            return .problem("its video is embedded in the PDF, and embedded videos are not played yet; save the "
                            + "video beside the PDF and name it in the annotation")
        case .file(let name, let embedded):
            return local(name, percentEncoded: false, embedded: embedded, options: options, certain: certain, folder: folder)
        case .uri(let uri):
            if let scheme = scheme(of: uri) {
                guard scheme == "file" else {
                    let shown = TextSanitizer.line(String(uri.prefix(200)))
                    guard ["http", "https", "ftp", "rtsp", "rtmp"].contains(scheme),
                          looksLikeVideo(String(uri.split(separator: "?").first ?? "")) else { return .ignored }
                    return .problem("its video \(shown) is on the network, and only local files play; download it "
                                    + "beside the PDF and link it by name")
                }
                var rest = uri.dropFirst("file:".count)
                if rest.hasPrefix("//") {
                    rest = rest.dropFirst(2)
                    let host = rest.prefix { $0 != "/" }
                    guard host.isEmpty || host.lowercased() == "localhost" else {
                        return .problem("its video \(TextSanitizer.line(String(uri.prefix(200)))) is on another "
                                        + "computer (\(TextSanitizer.line(String(host.prefix(60))))); only local files play")
                    }
                    rest = rest.dropFirst(host.count)
                }
                return local(String(rest), percentEncoded: true, embedded: false, options: options, certain: certain,
                             folder: folder)
            }
            return local(uri, percentEncoded: true, embedded: false, options: options, certain: certain, folder: folder)
        }
    }

    /// A URI's scheme (lowercased), or nil for a relative reference. One letter is a Windows drive, not a scheme.
    static func scheme(of uri: String) -> String? {
        guard let colon = uri.firstIndex(of: ":") else { return nil }
        let scheme = uri[..<colon]
        guard scheme.count > 1, let first = scheme.first, first.isASCII, first.isLetter,
              scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }) else { return nil }
        return scheme.lowercased()
    }

    /// Whether a name ends in a video file's extension.
    static func looksLikeVideo(_ name: String) -> Bool {
        videoExtensions.contains((name as NSString).pathExtension.lowercased())
    }

    private static func local(_ written: String, percentEncoded: Bool, embedded: Bool, options: ClipOptions,
                              certain: Bool, folder: URL) -> Outcome {
        var name = written, query: String?
        // pdfpc's options follow a `?`, unless the whole name is a file that exists.
        if let mark = written.firstIndex(of: "?"), !exists(path(written, percentEncoded: percentEncoded, folder: folder)) {
            name = String(written[..<mark])
            query = String(written[written.index(after: mark)...])
        }
        let shown = TextSanitizer.line(String(name.prefix(200)))
        let meant = certain || query != nil || looksLikeVideo(name)
        guard !name.isEmpty else { return meant ? .problem("it names no video file; not played") : .ignored }
        let url = path(name, percentEncoded: percentEncoded, folder: folder)
        let head: [UInt8]
        do {
            head = try UntrustedFile.head(url, count: MediaContainer.sniffLength)
        } catch {
            guard meant else { return .ignored }
            if case .missing = error {
                if embedded {
                    return .problem("its video \(shown) is embedded in the PDF and not beside it (looked for "
                                    + "\(PrintableText.name(url.path))); embedded videos are not played yet: save the video there")
                }
                return .problem("its video \(shown) does not exist (looked for \(PrintableText.name(url.path))); not played")
            }
            return .problem("its video \(shown) cannot be played: \(error.reason)")
        }
        guard MediaContainer.sniff(head).isVideo else {
            return meant ? .problem("its file \(shown) is not a video (it does not start like WebM, Matroska, MP4, "
                                    + "QuickTime, Ogg, AVI or MPEG-TS); not played") : .ignored
        }
        var played = options, problems: [String] = []
        if let query {
            let read = ClipOptions.pdfpcQuery(query)
            problems = read.problems
            played.autoplay = played.autoplay || read.options.autoplay
            played.loops = played.loops || read.options.loops
            played.muted = played.muted || read.options.muted
            if read.options.start > 0 { played.start = read.options.start }
            if let stop = read.options.stop { played.stop = stop }
            played.checkRange(&problems)
        }
        return .clip(url, played, problems: problems)
    }

    /// The file a name stands for: absolute as it is, relative against `folder`; `.` and `..` resolved.
    private static func path(_ name: String, percentEncoded: Bool, folder: URL) -> URL {
        let decoded = percentEncoded ? (name.removingPercentEncoding ?? name) : name
        let url = decoded.hasPrefix("/") ? URL(fileURLWithPath: decoded) : folder.appendingPathComponent(decoded)
        return url.standardizedFileURL
    }

    private static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }
}
