import Dispatch
import ExternalDisplayPresenter
import Foundation

/// Reads the console's standard input on a thread of its own and yields what was typed. End of input stops
/// reading only (the talk goes on until `q` or a signal).
enum StandardInputReader {
    static func start() -> AsyncStream<KeyPress> {
        let (stream, continuation) = AsyncStream<KeyPress>.makeStream()
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                let count = read(0, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                for press in TerminalKeys.parse(Array(buffer[0..<count])) { continuation.yield(press) }
            }
            continuation.finish()
        }
        thread.start()
        return stream
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
