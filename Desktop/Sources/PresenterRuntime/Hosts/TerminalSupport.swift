import Dispatch
import ExternalDisplayPresenter
import Foundation

/// Reads the console's standard input on a thread of its own and yields what was typed. End of input stops
/// reading only (the talk goes on until `q` or a signal).
enum StandardInputReader {
    static func start() -> AsyncStream<TerminalInput> {
        let (stream, continuation) = AsyncStream<TerminalInput>.makeStream()
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var splitter = TerminalInputSplitter()
            while true {
                let count = read(0, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for input in splitter.feed(Array(buffer[0..<count])) { continuation.yield(input) }
            }
            continuation.finish()
        }
        thread.start()
        return stream
    }
}

/// What the terminal console reads: key presses, and step lines.
enum TerminalInput: Hashable, Sendable {
    /// A key.
    case press(KeyPress)
    /// A line typed after `:` up to Enter: a `--keys` step (`ink:0.2/0.5;0.8/0.5`, `pointer:0.5/0.5`, `next`).
    case step(String)
}

/// Splits the bytes read from standard input into key presses (``TerminalKeys``) and step lines: `:` starts a
/// line, Enter ends it, Esc abandons it. A line keeps at most ``lineLimit`` bytes (the rest is dropped, and the
/// step then says what is wrong with it). Bytes of a line may come in several reads.
struct TerminalInputSplitter {
    /// The most bytes of a step line kept.
    static let lineLimit = 256 * 1024
    private var line: [UInt8]?

    mutating func feed(_ bytes: [UInt8]) -> [TerminalInput] {
        var out: [TerminalInput] = []
        var keys: [UInt8] = []
        for byte in bytes {
            if var current = line {
                line = nil
                switch byte {
                case 0x0a, 0x0d: out.append(.step(String(decoding: current, as: UTF8.self)))
                case 0x1b: break
                default:
                    if current.count < Self.lineLimit { current.append(byte) }
                    line = current
                }
                continue
            }
            if byte == UInt8(ascii: ":") {
                out += TerminalKeys.parse(keys).map(TerminalInput.press)
                keys = []
                line = []
                continue
            }
            keys.append(byte)
        }
        out += TerminalKeys.parse(keys).map(TerminalInput.press)
        return out
    }
}

/// Single-key input on a terminal: no line buffering, no echo, no XON/XOFF flow control (so Ctrl-Q reaches the
/// console), restored on exit. Does nothing when standard input is not a terminal (piped keys).
final class TerminalMode {
    private var saved: termios?

    func enterKeyMode() {
        guard isatty(0) == 1 else { return }
        var settings = termios()
        guard tcgetattr(0, &settings) == 0 else { return }
        saved = settings
        settings.c_lflag &= ~tcflag_t(ICANON | ECHO)
        settings.c_iflag &= ~tcflag_t(IXON)
        tcsetattr(0, TCSANOW, &settings)
    }

    func restore() {
        guard var saved else { return }
        tcsetattr(0, TCSANOW, &saved)
        self.saved = nil
    }
}

/// The process's resident memory and open file descriptors, from /proc (Linux).
enum ProcessStats {
    static func residentKiB() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }

    static func openFiles() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}
