import Foundation

/// The name of a video codec no installed decoder takes, and what to install or set to play it: read from the
/// stream's GStreamer caps (`video/x-h265, profile=(string)main-444, …` gives "H.265/HEVC (Main 444 profile)" and
/// gstreamer1.0-libav), with GStreamer's own name for codecs the table does not know.
///
/// ```swift
/// let advice = VideoCodecAdvice(caps: "video/mpeg, mpegversion=(int)4", gstreamerName: nil, rankedDownDecoder: "avdec_mpeg4")
/// advice.codec   // "MPEG-4 Part 2 (DivX, Xvid)"
/// advice.advice  // "FFmpeg's avdec_mpeg4 is installed but … set EXTDISPLAY_ALLOW_AVDEC=1 …"
/// ```
public struct VideoCodecAdvice: Sendable, Hashable {
    /// The codec, as a user knows it ("H.264/AVC (High 4:4:4 profile)").
    public let codec: String
    /// What to do: the Debian package to install, the variable to set, or that nothing decodes it.
    public let advice: String

    /// The advice for a stream with `caps` (GStreamer's caps as a string); `gstreamerName` is GStreamer's name for
    /// the codec (pbutils), used when the table does not know the caps; `rankedDownDecoder` is an installed decoder
    /// for the caps that is ranked down to none (FFmpeg's `avdec_*` unless `EXTDISPLAY_ALLOW_AVDEC=1`);
    /// `avdecAllowed` says whether that variable is set (`nil`: read it from the environment).
    public init(caps: String, gstreamerName: String?, rankedDownDecoder: String?,
                avdecAllowed: Bool? = nil) {
        let avdecAllowed = avdecAllowed ?? (ProcessInfo.processInfo.environment["EXTDISPLAY_ALLOW_AVDEC"] == "1")
        let fields = Self.fields(of: caps)
        let media = fields.name
        let known = Self.table(media: media, fields: fields.values)
        var name = known?.name ?? gstreamerName.map { Self.printable($0) } ?? "the codec \(Self.printable(media))"
        if let profile = fields.values["profile"], !profile.isEmpty, known != nil {
            name += " (\(Self.profileName(profile)) profile)"
        }
        codec = name
        let convert = "or convert the clip to WebM (VP8 or VP9)"
        let convertOnly = "convert the clip to WebM (VP8 or VP9)"
        if let decoder = rankedDownDecoder.map({ Self.printable($0) }) {
            if decoder.hasPrefix("avdec_"), !avdecAllowed {
                advice = "FFmpeg's \(decoder) (gstreamer1.0-libav) is installed but not used by default (GPL-2+ as Debian "
                    + "builds it): set EXTDISPLAY_ALLOW_AVDEC=1 to use it, \(convert)"
            } else {
                advice = "\(decoder) is installed but ranked by its plugin never to be picked: \(convertOnly)"
            }
        } else if let package = known?.package {
            advice = package == "gstreamer1.0-libav"
                ? "install gstreamer1.0-libav (apt install gstreamer1.0-libav) and set EXTDISPLAY_ALLOW_AVDEC=1 (FFmpeg's "
                    + "decoders, GPL-2+ as Debian builds them, are not used by default), \(convert)"
                : "install \(package) (apt install \(package)), \(convert)"
        } else if known != nil {
            advice = "no GStreamer package decodes it: \(convertOnly)"
        } else {
            advice = "look for a GStreamer decoder of \(Self.printable(media)) (gst-inspect-1.0), \(convert)"
        }
    }

    /// The codecs the table knows: the name a user knows and the Debian package whose decoder plays them (`nil`:
    /// none does).
    static func table(media: String, fields: [String: String]) -> (name: String, package: String?)? {
        switch media {
        case "video/x-h264": ("H.264/AVC", "gstreamer1.0-libav")
        case "video/x-h265": ("H.265/HEVC", "gstreamer1.0-libav")
        case "video/x-vp8": ("VP8", "gstreamer1.0-plugins-good")
        case "video/x-vp9": ("VP9", "gstreamer1.0-plugins-good")
        case "video/x-av1": ("AV1", "gstreamer1.0-plugins-bad")
        case "video/x-theora": ("Theora", "gstreamer1.0-plugins-base")
        case "image/jpeg": ("Motion JPEG", "gstreamer1.0-plugins-good")
        case "image/png": ("PNG", "gstreamer1.0-plugins-good")
        case "video/x-dv": ("DV", "gstreamer1.0-plugins-good")
        case "video/mpeg":
            switch fields["mpegversion"] {
            case "4": ("MPEG-4 Part 2 (DivX, Xvid)", "gstreamer1.0-libav")
            case "1": ("MPEG-1 video", "gstreamer1.0-plugins-ugly")
            default: ("MPEG-2 video", "gstreamer1.0-plugins-ugly")
            }
        case "video/x-divx", "video/x-xvid": ("MPEG-4 Part 2 (DivX, Xvid)", "gstreamer1.0-libav")
        case "video/x-msmpeg": ("Microsoft MPEG-4", "gstreamer1.0-libav")
        case "video/x-h263": ("H.263", "gstreamer1.0-libav")
        case "video/x-wmv": ("Windows Media Video", "gstreamer1.0-libav")
        case "video/x-prores": ("Apple ProRes", "gstreamer1.0-libav")
        case "video/x-huffyuv": ("HuffYUV", "gstreamer1.0-libav")
        default:
            if media == "video/x-avi-unknown", fields["fourcc"].flatMap({ Int64($0) }) == 0 {
                ("uncompressed AVI pixels in a layout GStreamer does not read (four-character code 0)", nil)
            } else if media.hasSuffix("-unknown") {
                ("a codec GStreamer does not know" + (fields["fourcc"].map { " (four-character code \(Self.fourcc($0)))" } ?? ""), nil)
            } else {
                nil
            }
        }
    }

    /// The structure name and the simple fields (`key=(type)value`, the type dropped) of the first structure of a
    /// caps string; lists and ranges are kept as written (brackets count only inside a value, after its `=`).
    static func fields(of caps: String) -> (name: String, values: [String: String]) {
        let first = caps.split(separator: ";", maxSplits: 1).first.map(String.init) ?? caps
        var parts: [String] = []
        var current = "", depth = 0, quoted = false
        for character in first {
            switch character {
            case "\"": quoted.toggle()
            case "{", "[", "<": if !quoted, current.contains("=") { depth += 1 }
            case "}", "]", ">": if !quoted, current.contains("=") { depth = max(0, depth - 1) }
            case "," where depth == 0 && !quoted:
                parts.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        parts.append(current)
        let name = parts.first?.trimmingCharacters(in: .whitespaces) ?? ""
        var values: [String: String] = [:]
        for part in parts.dropFirst() {
            guard let equals = part.firstIndex(of: "=") else { continue }
            let key = part[..<equals].trimmingCharacters(in: .whitespaces)
            var value = part[part.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("("), let close = value.firstIndex(of: ")") {
                value = String(value[value.index(after: close)...])
            }
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            values[key] = value
        }
        return (name, values)
    }

    /// A four-character code as caps give it (`(int)1481327685`, little-endian, or the characters): its characters
    /// when all four are printable ASCII, else its number in hexadecimal.
    public static func fourcc(_ value: String) -> String {
        guard let signed = Int64(value), let number = UInt32(exactly: signed & 0xFFFF_FFFF) else { return printable(value) }
        let bytes = (0..<4).map { UInt8((number >> (8 * UInt32($0))) & 0xFF) }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "0x" + String(number, radix: 16, uppercase: true) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `high-4:4:4-intra` as "High 4:4:4 Intra".
    static func profileName(_ profile: String) -> String {
        printable(profile).split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// Text from a file's headers, made safe to print: control characters shown as `\u{…}`, at most 80 characters.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if scalar.properties.generalCategory == .control { out += "\\u{\(String(scalar.value, radix: 16))}" } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}
