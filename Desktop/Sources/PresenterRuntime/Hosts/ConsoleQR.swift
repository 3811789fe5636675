import DesktopFiles
import ExternalDisplayBrowser
import ExternalDisplayKit
import ExternalDisplayPresenter
import Foundation

/// The QR panel on the desktop console while serving browsers: the audience URL (shown from the start), or on
/// request the remote URL with its token — never while the console is mirrored to the audience or the main
/// display shows the audience view. `U` cycles audience → remote → none.
struct ConsoleQR {
    /// What the panel shows.
    enum Shown: Equatable {
        case audience, remote, none
    }

    private(set) var shown: Shown = .audience
    let audience: (url: String, code: QRCode?)
    let remote: (url: String, code: QRCode?)?

    init(audienceURL: String, remoteURL: String?) {
        audience = (audienceURL, try? QRCode(encoding: audienceURL))
        remote = remoteURL.map { ($0, try? QRCode(encoding: $0)) }
    }

    /// `U`: the next panel (the remote only when there is one).
    mutating func cycle() {
        switch shown {
        case .audience: shown = remote == nil ? .none : .remote
        case .remote: shown = .none
        case .none: shown = .audience
        }
    }

    /// What may be shown now: the remote's code is withheld while the console is what the audience sees.
    func visible(privateConsole: Bool) -> Shown {
        shown == .remote && !privateConsole ? .none : shown
    }

    /// The panel's drawing operations in the bottom-right corner of a console of `size`.
    func operations(size: PixelSize, privateConsole: Bool) -> [DrawOperation] {
        let which = visible(privateConsole: privateConsole)
        let entry: (url: String, code: QRCode?, caption: String)
        switch which {
        case .none: return []
        case .audience: entry = (audience.url, audience.code, "Audience: open or scan")
        case .remote:
            guard let remote else { return [] }
            entry = (remote.url, remote.code, "Your remote (private, U hides)")
        }
        guard let code = entry.code else { return [] }
        return Self.panel(code, caption: entry.caption, url: entry.url, size: size)
    }

    /// A white square with the code (4-module quiet zone) about a quarter of the console's height, and two lines
    /// of caption above it.
    static func panel(_ code: QRCode, caption: String, url: String, size: PixelSize) -> [DrawOperation] {
        let modules = code.size + 8
        let scale = max(2, min(size.width, size.height) / 4 / modules)
        let side = modules * scale
        let margin = 16, captionHeight = 44
        let x = size.width - side - margin, y = size.height - side - margin
        guard x > 0, y > captionHeight else { return [] }
        var ops: [DrawOperation] = [
            .fill(Rect(x: x - 8, y: y - captionHeight - 8, width: side + 16, height: side + captionHeight + 16), RGBA(24, 28, 38)),
            .fill(Rect(x: x, y: y, width: side, height: side), RGBA(255, 255, 255)),
        ]
        for run in code.darkRuns {
            ops.append(.fill(Rect(x: x + (run.column + 4) * scale, y: y + (run.row + 4) * scale,
                                  width: run.length * scale, height: scale), RGBA(0, 0, 0)))
        }
        ops.append(.text(caption, x: x, y: y - captionHeight, TextStyle(.sansBold, size: 16, color: RGBA(232, 236, 244))))
        let shortURL = url.count > 48 ? String(url.prefix(45)) + "…" : url
        ops.append(.text(shortURL, x: x, y: y - captionHeight + 22, TextStyle(.mono, size: 13, color: RGBA(160, 170, 190))))
        return ops
    }
}

/// The QR code of a URL for the terminal, when standard output is one (piped output gets the URL lines only).
enum TerminalQR {
    static func print(_ url: String, label: String) {
        guard isatty(1) == 1 else { return }
        do {
            let code = try QRCode(encoding: url)
            StandardStreams.write("\(label)\n\(code.terminalText())\n")
        } catch {
            StandardStreams.line("(no QR code: \(error.description))")
        }
    }
}
