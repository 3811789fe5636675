import Foundation

/// A file as users have it, opened once and checked: named by its bytes (a Latin-1 name from an old USB stick
/// opens, and is shown escaped), a symbolic link followed to its target, and only a regular file kept — a FIFO,
/// device, socket or directory is refused by its kind before anything reads from it, so no thread ever blocks
/// on it. The path is checked with `stat(2)` first (a device is never opened), then opened non-blocking and the
/// descriptor itself checked with `fstat(2)` (a FIFO swapped in between is refused, not waited on).
///
/// Everything after is read from this descriptor (``read(at:count:)``, `pread(2)`), never by name again: a file
/// renamed, replaced or turned into a FIFO under its name changes nothing for its reader.
///
/// ```swift
/// let film = try OpenedFile.open(bytes: CommandLineBytes.argument(matching: path))
/// let head = try film.read(at: 0, count: 64)
/// ```
public final class OpenedFile: Sendable {
    /// The open descriptor (close-on-exec), closed when the value goes away.
    public let descriptor: Int32
    /// The path as given, byte for byte.
    public let pathBytes: [UInt8]
    /// The file's size in bytes when it was opened.
    public let size: Int64

    /// The path, printable: controls and bytes that are not UTF-8 escaped (``PrintableText/name(bytes:limit:)``).
    public var shownPath: String { PrintableText.name(bytes: pathBytes) }
    /// The last component of the path, printable.
    public var shownName: String {
        let last = pathBytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).last.map(Array.init) ?? pathBytes
        return PrintableText.name(bytes: last)
    }

    private init(descriptor: Int32, pathBytes: [UInt8], size: Int64) {
        self.descriptor = descriptor
        self.pathBytes = pathBytes
        self.size = size
    }

    deinit { close(descriptor) }

    /// Opens the regular file at `url` (its path as UTF-8).
    public static func open(_ url: URL) throws(UntrustedFileError) -> OpenedFile {
        try open(bytes: Array(url.path.utf8))
    }

    /// Opens the regular file whose path is `bytes` (as the system has it: any bytes but NUL); throws a message
    /// naming the path (escaped) and what it is instead.
    public static func open(bytes: [UInt8]) throws(UntrustedFileError) -> OpenedFile {
        let shown = PrintableText.name(bytes: bytes)
        guard !bytes.isEmpty, !bytes.contains(0) else { throw .missing(shown) }
        let cPath = bytes.map { CChar(bitPattern: $0) } + [0]
        var info = stat()
        guard stat(cPath, &info) == 0 else {
            throw errno == ENOENT ? .missing(shown) : .unreadable(shown, String(cString: strerror(errno)))
        }
        try UntrustedFile.checkKind(info.st_mode, shown)
        let fd = Foundation.open(cPath, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { throw .unreadable(shown, String(cString: strerror(errno))) }
        // The path may have been swapped between stat and open: the opened file itself is what counts.
        guard fstat(fd, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .unreadable(shown, reason)
        }
        do { try UntrustedFile.checkKind(info.st_mode, shown) } catch {
            close(fd)
            throw error
        }
        return OpenedFile(descriptor: fd, pathBytes: bytes, size: Int64(info.st_size))
    }

    /// Up to `count` bytes from `offset` (fewer at the end of the file; none past it). Safe from any thread: each
    /// read names its offset (`pread(2)`), nothing is shared.
    public func read(at offset: Int64, count: Int) throws(UntrustedFileError) -> [UInt8] {
        guard count > 0, offset >= 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if got < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw .unreadable(shownPath, String(cString: strerror(errno)))
            }
            if got == 0 { break }
            filled += got
        }
        return Array(bytes[0..<filled])
    }
}

/// The program's arguments as the system gave them, bytes and all. Swift's `CommandLine.arguments` (and so
/// ArgumentParser) repairs bytes that are not UTF-8 into U+FFFD, and a file name with them then names no file:
/// the original bytes are found here again.
public enum CommandLineBytes {
    /// Every argument, byte for byte.
    public static var all: [[UInt8]] {
        (0..<Int(CommandLine.argc)).map { index in
            guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
            return Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self),
                                             count: strlen(pointer)))
        }
    }

    /// The bytes of the argument that decodes (with repairs) to `text`: the file name the user typed, even where
    /// `text` holds U+FFFD. `text`'s UTF-8 when no argument matches (a name built by the program).
    public static func argument(matching text: String) -> [UInt8] {
        let arguments = all.dropFirst()
        if let exact = arguments.first(where: { String(decoding: $0, as: UTF8.self) == text }) { return exact }
        // `--option=value` forms: the value after the first `=`.
        for argument in arguments {
            guard let equals = argument.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let value = Array(argument[(equals + 1)...])
            if String(decoding: value, as: UTF8.self) == text { return value }
        }
        return Array(text.utf8)
    }
}
