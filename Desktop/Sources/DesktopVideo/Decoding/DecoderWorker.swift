#if canImport(CGStreamer)
import CDecoderProcess
import Foundation

/// The decoder process's side (`extdisplay-decoder`): answers ``VideoDecoder``'s requests with a
/// ``GStreamerPipeline`` of its own (the same code as in-process decoding), frames written to the frame memory
/// (see ``DecoderProtocol``), and the sound, if any, played from here through the sound server.
///
/// It never outlives its parent: a thread watches the socket and ends the process (`_exit`) as soon as the parent's
/// end closes, which the kernel does when the parent dies however it dies (the parent's end is close-on-exec, so
/// no other child holds it), and checks once a second that the parent is still its parent. When the parent started
/// it from its main thread it also asks for SIGKILL when the parent goes (`PR_SET_PDEATHSIG`); not from another
/// thread, because the kernel sends that signal when the *thread* that started the process ends, and a worker
/// thread of the parent may end while the decoder is still wanted.
public enum DecoderWorker {
    /// Runs the decoder process until its parent closes the socket or goes; never returns.
    public static func run(arguments: [String] = CommandLine.arguments) -> Never {
        let parent = arguments.count > 1 ? pid_t(arguments[1]) ?? 0 : 0
        if arguments.count > 2, arguments[2] == "main" { _ = edk_set_parent_death_signal(SIGKILL) }
        guard parent > 1, getppid() == parent else {
            FileHandle.standardError.write(Data("extdisplay-decoder: started by extdisplay only (it talks to it on descriptor 3)\n".utf8))
            exit(2)
        }
        watchParent(parent)
        // A crash here is expected of a bad file, not a bug to keep a core of: none is written (it would take the
        // time and disk of a process as large as GStreamer's decoders, before the parent hears of the crash).
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        var info = stat()
        guard fstat(DecoderProtocol.memoryDescriptor, &info) == 0, Int(info.st_size) >= DecoderProtocol.frameMemoryBytes,
              let memory = mmap(nil, DecoderProtocol.frameMemoryBytes, PROT_READ | PROT_WRITE, MAP_SHARED,
                                DecoderProtocol.memoryDescriptor, 0), memory != MAP_FAILED else {
            FileHandle.standardError.write(Data("extdisplay-decoder: no frame memory on descriptor 4\n".utf8))
            exit(2)
        }
        var server = Server(memory: memory)
        let socket = DecoderProtocol.socketDescriptor
        while true {
            switch DecoderProtocol.receive(on: socket) {
            case .message(let data):
                let reply: DecoderReply
                if let request = DecoderProtocol.decode(DecoderRequest.self, from: data) {
                    reply = server.answer(request)
                } else {
                    reply = .failed(.decoderProcessFailed(path: server.path, reason: "was sent a request it cannot read"))
                }
                guard let message = DecoderProtocol.encode(reply), DecoderProtocol.send(message, on: socket) else { exit(0) }
            case .nothing:
                continue
            case .closed, .tooLong, .failed:
                exit(0)
            }
        }
    }

    /// The watch thread: ends the process once the socket's other end is closed or the parent changed.
    private static func watchParent(_ parent: pid_t) {
        let thread = Thread {
            while true {
                // No events asked for: poll reports only a hang-up or an error of the socket.
                var descriptor = pollfd(fd: DecoderProtocol.socketDescriptor, events: 0, revents: 0)
                let ready = poll(&descriptor, 1, 1000)
                if ready > 0, descriptor.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { _exit(0) }
                if getppid() != parent { _exit(0) }
            }
        }
        thread.name = "parent watch"
        thread.start()
    }

    /// The pipeline and the frame memory.
    private struct Server {
        let memory: UnsafeMutableRawPointer
        var pipeline: GStreamerPipeline?
        var path = "the file"

        init(memory: UnsafeMutableRawPointer) { self.memory = memory }

        mutating func answer(_ request: DecoderRequest) -> DecoderReply {
            do throws(VideoDecodingError) {
                if case .open(let path, let timeout, let playsSound, let layout) = request {
                    self.path = path
                    pipeline = nil
                    let opened = try GStreamerPipeline(opening: URL(fileURLWithPath: path), timeout: timeout,
                                                       playsSound: playsSound, layout: layout)
                    pipeline = opened
                    return .opened(info: opened.info, first: try opened.lastFrame.map(write))
                }
                guard let pipeline else {
                    return .failed(.decoderProcessFailed(path: path, reason: "was asked for frames before a file was opened"))
                }
                switch request {
                case .open:
                    return .done
                case .frame(let seconds):
                    return .frame(try write(try pipeline.frame(at: seconds)))
                case .startStreaming(let seconds, let rate):
                    try pipeline.startStreaming(from: seconds, rate: rate)
                    return .done
                case .pauseStreaming:
                    pipeline.pauseStreaming()
                    return .done
                case .streamFrame(let seconds):
                    return .frame(try pipeline.streamFrame(upTo: seconds).map(write))
                case .requestFrame(let seconds):
                    try pipeline.requestFrame(at: seconds)
                    return .done
                case .prerolledFrame:
                    return .frame(try pipeline.prerolledFrame().map(write))
                case .soundPosition:
                    return .position(pipeline.soundPosition())
                case .setVolume(let level):
                    pipeline.setVolume(level)
                    return .done
                case .playsSound:
                    return .flag(pipeline.playsSound)
                }
            } catch {
                return .failed(error)
            }
        }

        /// Copies `frame`'s pixels to the start of the frame memory.
        func write(_ frame: VideoFrame) throws(VideoDecodingError) -> DecoderFrameHeader {
            let bytes = frame.width * frame.height * 4
            guard frame.width > 0, frame.height > 0, bytes == frame.pixels.count,
                  bytes <= DecoderProtocol.frameMemoryBytes else {
                throw .unsupportedSize(path: path, width: frame.width, height: frame.height)
            }
            frame.pixels.withUnsafeBytes { pixels in
                if let base = pixels.baseAddress { memory.copyMemory(from: base, byteCount: bytes) }
            }
            return DecoderFrameHeader(width: frame.width, height: frame.height, time: frame.time)
        }
    }
}
#endif
