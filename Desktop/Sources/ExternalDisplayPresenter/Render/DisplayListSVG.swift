import ExternalDisplayKit
import Foundation

/// A ``DisplayList`` as an SVG document: rectangles, outlines, lines and text as SVG elements at the same
/// coordinates (text positioned by its top edge, as the list's; ink strokes as round-capped polylines). Pictures (images, PDF pages, clips) become their
/// rectangle in grey: an SVG of a chart or a layout, not of slides' pixels.
public enum DisplayListSVG {
    /// The SVG text of `list`.
    public static func document(_ list: DisplayList) -> String {
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(list.size.width)\" height=\"\(list.size.height)\" "
            + "viewBox=\"0 0 \(list.size.width) \(list.size.height)\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#000000\"/>\n"
        for operation in list.operations {
            switch operation {
            case .fill(let r, let c):
                out += "<rect x=\"\(r.x)\" y=\"\(r.y)\" width=\"\(r.width)\" height=\"\(r.height)\"\(paint("fill", c))/>\n"
            case .stroke(let r, let c, let width):
                let w = max(1, width)
                out += "<rect x=\(quoted(Double(r.x) + Double(w) / 2)) y=\(quoted(Double(r.y) + Double(w) / 2)) "
                    + "width=\(quoted(Double(max(0, r.width - w)))) height=\(quoted(Double(max(0, r.height - w)))) "
                    + "fill=\"none\"\(paint("stroke", c)) stroke-width=\"\(w)\"/>\n"
            case .line(let x1, let y1, let x2, let y2, let c):
                out += "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\"\(paint("stroke", c))/>\n"
            case .text(let text, let x, let y, let style):
                let family = style.face == .mono ? "monospace" : "sans-serif"
                let weight = style.face == .sansBold ? " font-weight=\"bold\"" : ""
                out += "<text x=\"\(x)\" y=\"\(y)\" dominant-baseline=\"text-before-edge\" font-family=\"\(family)\" "
                    + "font-size=\"\(style.size)\"\(weight)\(paint("fill", style.color))>\(escaped(text))</text>\n"
            case .ink(let paths):
                // Each stroke a polyline of its mean width, round-capped (the canvas varies the width point by point).
                for path in paths where !path.points.isEmpty {
                    let points = path.points.map { "\($0.x),\($0.y)" }.joined(separator: " ")
                    let width = path.points.map(\.width).reduce(0, +) / path.points.count
                    out += "<polyline points=\"\(points)\" fill=\"none\"\(paint("stroke", path.colour)) "
                        + "stroke-width=\"\(max(1, width))\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>\n"
                }
            case .image(_, let r, _), .page(_, let r), .video(_, let r, _):
                out += "<rect x=\"\(r.x)\" y=\"\(r.y)\" width=\"\(r.width)\" height=\"\(r.height)\" fill=\"#808080\"/>\n"
            }
        }
        return out + "</svg>\n"
    }

    private static func paint(_ attribute: String, _ colour: RGBA) -> String {
        let hex = String(format: "#%02x%02x%02x", colour.r, colour.g, colour.b)
        return " \(attribute)=\"\(hex)\"" + (colour.a == 255 ? "" : " \(attribute)-opacity=\"\(Double(colour.a) / 255)\"")
    }

    private static func quoted(_ value: Double) -> String { "\"\(value)\"" }

    /// Text with XML's five special characters escaped and control characters dropped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
