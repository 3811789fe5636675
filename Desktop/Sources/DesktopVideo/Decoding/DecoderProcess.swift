#if canImport(CGStreamer)
import CDecoderProcess
import CFatalSignals
import DesktopProcesses
import Foundation

/// The parent's side of one decoder process (``DecoderWorker``, `extdisplay-decoder`): started for one file, asked
/// one request at a time, stopped (SIGKILL) and reaped when the ``VideoDecoder`` goes or the process misbehaves.
///
/// Bounds (``allowance(for:timeout:)``): a request that waits in the pipeline (opening, a seek) waits at most the
/// decoder's timeout plus ``grace`` (opening: plus ``startAllowance``, for the process's start and GStreamer's);
/// the process's own waits end at the timeout, so its own `timedOut` comes first when the pipeline stalls, and this
/// bound only catches a process that stopped answering. A request that never waits there (a streamed frame, the
/// sound's position) waits at most ``quickAllowance``: a player's loop is held up that long by a hung process,
/// never the whole timeout. Replies are one
/// datagram of at most ``DecoderProtocol/maximumMessage`` bytes; anything longer, unreadable or unasked for, a
/// frame larger than the frame memory, an end of the socket, a signal or an exit stops the process and gives
/// ``VideoDecodingError/decoderProcessFailed(path:reason:)`` (a stall ``VideoDecodingError/timedOut(path:seconds:doing:)``)
/// naming the file and the reason; every later call gives the same error. Its standard error is a socket read
/// only while a request waits, whose writing end never blocks: a flood of text is lost, never a stall, and the last
/// line is quoted when the process dies (glibc's "malloc(): corrupted top size").
///
/// The process leads a process group of its own (Ctrl-C at the terminal does not reach it; the presenter's
/// signal cleanup kills the group with the PDF tools' groups), is started with an empty signal mask and default
/// handlers (``CleanSpawn``) and ends itself when this process goes (see ``DecoderWorker``).
final class DecoderProcess {
    /// Seconds a request may take beyond the decoder's timeout before the process is taken for hung.
    static let grace = 2.0
    /// Seconds opening may take beyond that: starting the process, then GStreamer in it.
    static let startAllowance = 5.0
    /// Seconds a request that never waits in the pipeline may take (taking a streamed or prerolled frame, the
    /// sound's position or volume): a healthy process answers within a millisecond; this covers a machine so loaded
    /// that the process is not scheduled for a while, and bounds how long a hung process holds up a player's loop.
    static let quickAllowance = 2.0

    /// How long `request` may take, in seconds, for a decoder whose timeout is `timeout`.
    static func allowance(for request: DecoderRequest, timeout: Double) -> Double {
        switch request {
        case .open: timeout + grace + startAllowance
        case .frame, .startStreaming, .pauseStreaming, .requestFrame: timeout + grace
        case .streamFrame, .prerolledFrame, .soundPosition, .setVolume, .playsSound: min(quickAllowance, timeout + grace)
        }
    }
    /// The file decoded, for messages.
    let path: String
    /// The decoder's timeout.
    let timeout: Double
    /// The process's id.
    let pid: pid_t
    private let socket: Int32
    private let errors: Int32
    private let memory: UnsafeRawPointer
    private var errorTail: [UInt8] = []
    /// Whether the standard error pipe may still give something (not at its end).
    private var errorsOpen = true
    /// Set once the process is stopped: every later request throws it.
    private(set) var failure: VideoDecodingError?
    private var reaped = false

    /// The decoder program: `EDK_DECODER_WORKER` when set (tests give stubs that crash, hang or flood), else
    /// `extdisplay-decoder` in the folder of the running program (`/proc/self/exe`: `extdisplay`, a benchmark or
    /// the test bundle in `.build/debug`).
    static func workerPath() -> String {
        if let path = ProcessInfo.processInfo.environment["EDK_DECODER_WORKER"], !path.isEmpty { return path }
        return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("extdisplay-decoder").path
    }

    /// The descriptor a path names through `/proc/self/fd/N` or `/dev/fd/N` (how a file whose name is not UTF-8
    /// is handed on, opened by its bytes): the decoder process gets it under the same number, so the same path
    /// names the same file there, and messages name it as here. `nil` for other paths.
    static func descriptor(in path: String) -> Int32? {
        for prefix in ["/proc/self/fd/", "/dev/fd/"] where path.hasPrefix(prefix) {
            return Int32(path.dropFirst(prefix.count))
        }
        return nil
    }

    /// Starts `worker` for `path` (nothing is asked of it yet).
    init(path: String, timeout: Double, worker: String) throws(VideoDecodingError) {
        self.path = path
        self.timeout = timeout
        let inherited = Self.descriptor(in: path)
        if let inherited, inherited <= DecoderProtocol.memoryDescriptor || fcntl(inherited, F_GETFD) < 0 {
            throw .decoderProcessUnavailable("the descriptor \(inherited) of \(path) cannot be handed to it")
        }
        guard FileManager.default.isExecutableFile(atPath: worker) else {
            throw .decoderProcessUnavailable("\(worker) is missing or not executable")
        }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .decoderProcessUnavailable("no socket: \(Self.errnoText())")
        }
        var errorSockets: [Int32] = [-1, -1]
        // A stream socketpair rather than a pipe: made close-on-exec and non-blocking at once (a pipe's flags are
        // set after it is made, when another thread's child may already have inherited it).
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, flags, 0, &errorSockets) == 0, shutdown(errorSockets[0], Int32(SHUT_WR)) == 0 else {
            for fd in pair + errorSockets where fd >= 0 { close(fd) }
            throw .decoderProcessUnavailable("no socket for its errors: \(Self.errnoText())")
        }
        let memoryFile = edk_sealed_memory(DecoderProtocol.frameMemoryBytes)
        guard memoryFile >= 0,
              let mapped = mmap(nil, DecoderProtocol.frameMemoryBytes, PROT_READ, MAP_SHARED, memoryFile, 0),
              mapped != MAP_FAILED else {
            let reason = Self.errnoText()
            for fd in pair + errorSockets + [memoryFile] where fd >= 0 { close(fd) }
            throw .decoderProcessUnavailable("no shared memory for frames: \(reason)")
        }
        // The child's copies are placed at 3 and 4 by dup2; from descriptors above 9 (dup2 onto the same number
        // would keep close-on-exec).
        let childSocket = fcntl(pair[1], F_DUPFD_CLOEXEC, 10)
        let childMemory = fcntl(memoryFile, F_DUPFD_CLOEXEC, 10)
        let childFile = inherited.map { fcntl($0, F_DUPFD_CLOEXEC, 10) }
        close(pair[1])
        close(memoryFile)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        if ProcessInfo.processInfo.environment["EDK_DECODER_STDERR"] != "inherit" {
            posix_spawn_file_actions_adddup2(&actions, errorSockets[1], 2)
        }
        posix_spawn_file_actions_adddup2(&actions, childSocket, DecoderProtocol.socketDescriptor)
        posix_spawn_file_actions_adddup2(&actions, childMemory, DecoderProtocol.memoryDescriptor)
        if let inherited, let childFile { posix_spawn_file_actions_adddup2(&actions, childFile, inherited) }
        let argv = [worker, String(getpid()), Thread.isMainThread ? "main" : "thread"]
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        // Swift's backtracer off in the decoder unless asked for: a crash there is reported by its signal and its
        // last line (glibc's "malloc(): corrupted top size"), at once, not after a backtrace of the process.
        var environment = ProcessInfo.processInfo.environment
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { cEnvironment.forEach { free($0) } }
        var pid: pid_t = 0
        var code = ECANCELED
        // As the PDF tools: not while the signal cleanup ends the process; then its group is recorded for it.
        var savedMask = sigset_t()
        if childSocket >= 0, childMemory >= 0, (childFile ?? 0) >= 0, edk_tool_spawn_begin(&savedMask) != 0 {
            code = CleanSpawn.withAttributes(newProcessGroup: true) { attributes in
                posix_spawn(&pid, worker, &actions, &attributes, cArguments, cEnvironment)
            }
            if code == 0 { _ = edk_tool_group_add(pid) }
            edk_tool_spawn_end(&savedMask)
        }
        for fd in [childSocket, childMemory, errorSockets[1], childFile ?? -1] where fd >= 0 { close(fd) }
        guard code == 0 else {
            close(pair[0]); close(errorSockets[0])
            munmap(mapped, DecoderProtocol.frameMemoryBytes)
            throw .decoderProcessUnavailable("\(worker) did not start: \(String(cString: strerror(code)))")
        }
        self.pid = pid
        socket = pair[0]
        errors = errorSockets[0]
        memory = UnsafeRawPointer(mapped)
    }

    deinit {
        stop()
        close(socket)
        close(errors)
        munmap(UnsafeMutableRawPointer(mutating: memory), DecoderProtocol.frameMemoryBytes)
    }

    /// Sends `request` and waits (bounded) for its reply; the pipeline's own errors come back as
    /// ``DecoderReply/failed(_:)``, the process's failures are thrown.
    func call(_ request: DecoderRequest, doing: String) throws(VideoDecodingError) -> DecoderReply {
        if let failure { throw failure }
        // Anything waiting before a request is a message nobody asked for (or the end of the process).
        switch DecoderProtocol.receive(on: socket, flags: Int32(MSG_DONTWAIT)) {
        case .nothing: break
        case .message, .tooLong: throw fail("sent a message nobody asked for")
        case .closed, .failed: throw died()
        }
        guard let message = DecoderProtocol.encode(request) else {
            throw fail("could not be sent the request for \(doing)")
        }
        guard DecoderProtocol.send(message, on: socket) else { throw died() }
        let allowance = Self.allowance(for: request, timeout: timeout)
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(allowance * 1e9)
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                stop()
                let error = VideoDecodingError.timedOut(path: path, seconds: allowance,
                                                        doing: "\(doing) (its decoder process did not answer and was stopped)")
                failure = error
                throw error
            }
            var descriptors = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: errorsOpen ? errors : -1, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(min(1000, max(1, (deadline - now) / 1_000_000)))
            let ready = poll(&descriptors, 2, milliseconds)
            if ready < 0, errno != EINTR { throw fail("could not be waited for: \(Self.errnoText())") }
            guard ready > 0 else { continue }
            if descriptors[1].revents != 0 { readErrors() }
            guard descriptors[0].revents != 0 else { continue }
            switch DecoderProtocol.receive(on: socket, flags: Int32(MSG_DONTWAIT)) {
            case .nothing:
                continue
            case .message(let data):
                guard let reply = DecoderProtocol.decode(DecoderReply.self, from: data) else {
                    throw fail("answered with something that is not a reply (\(data.count) bytes)")
                }
                return reply
            case .tooLong:
                throw fail("answered with more than \(DecoderProtocol.maximumMessage) bytes")
            case .closed, .failed:
                throw died()
            }
        }
    }

    /// The frame a reply announced, copied out of the frame memory.
    func frame(_ header: DecoderFrameHeader, layout: VideoFrame.Layout) throws(VideoDecodingError) -> VideoFrame {
        guard (1...8192).contains(header.width), (1...8192).contains(header.height), header.time.isFinite else {
            throw fail("announced a frame of \(header.width)×\(header.height) pixels at \(header.time) s")
        }
        let bytes = header.width * header.height * 4
        let pixels = [UInt8](UnsafeRawBufferPointer(start: memory, count: bytes))
        return VideoFrame(width: header.width, height: header.height, pixels: pixels, time: header.time, layout: layout)
    }

    /// Stops the process for a protocol violation; returns the error every later call throws.
    func fail(_ reason: String) -> VideoDecodingError {
        stop()
        let error = VideoDecodingError.decoderProcessFailed(path: path, reason: "broke the protocol: it \(reason); it was stopped")
        failure = failure ?? error
        return failure ?? error
    }

    /// The socket ended: the process is ending or ended. Reaped (a second at most, then killed) and described.
    private func died() -> VideoDecodingError {
        var status: Int32 = 0
        var ended = false
        let deadline = DispatchTime.now().uptimeNanoseconds + 1_000_000_000
        while !reaped, DispatchTime.now().uptimeNanoseconds < deadline {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno != EINTR) {
                ended = result == pid
                finishReaping()
                break
            }
            usleep(2_000)
        }
        readErrors()
        let reason: String
        if !ended {
            stop()
            reason = "closed its socket and was stopped"
        } else if status & 0x7F != 0 {
            let signal = status & 0x7F
            let name = edk_signal_abbreviation(signal).map { "SIG" + String(cString: $0) } ?? "unknown"
            reason = "crashed (signal \(signal), \(name)\(lastErrorLine.map { ": " + $0 } ?? ""))"
        } else {
            let code = (status >> 8) & 0xFF
            reason = "ended unexpectedly (exit status \(code)\(lastErrorLine.map { ": " + $0 } ?? ""))"
        }
        let error = VideoDecodingError.decoderProcessFailed(path: path, reason: reason)
        failure = failure ?? error
        return failure ?? error
    }

    /// Kills the process group (SIGKILL, while the unreaped leader keeps the group's id from reuse) and reaps the
    /// process; once.
    func stop() {
        guard !reaped else { return }
        kill(-pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        finishReaping()
    }

    /// After the process is reaped: its group is no longer signalled (a child left in it, such as GStreamer's
    /// plugin scanner, ends on its own when its pipe to the decoder closes; a group id is never signalled once
    /// its leader is reaped, since it may be reused).
    private func finishReaping() {
        reaped = true
        edk_tool_group_remove(pid)
    }

    /// Reads what the process wrote to standard error, keeping the last 4 KiB.
    private func readErrors() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count == 0 { errorsOpen = false }
            guard count > 0 else { return }
            errorTail.append(contentsOf: buffer[0..<count])
            if errorTail.count > 4096 { errorTail.removeFirst(errorTail.count - 4096) }
        }
    }

    /// The last line the process wrote to standard error, control characters escaped, at most 200 characters.
    private var lastErrorLine: String? {
        let lines = String(decoding: errorTail, as: UTF8.self).split(whereSeparator: \.isNewline)
        guard let last = lines.last(where: { !$0.allSatisfy(\.isWhitespace) }) else { return nil }
        var text = ""
        for scalar in last.trimmingCharacters(in: .whitespaces).unicodeScalars {
            if scalar.properties.generalCategory == .control {
                text += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }
}
#endif
