import DesktopFiles
import Foundation

/// The film `play` was given, opened once before any player, server or thread starts: by the bytes the user typed
/// (a name that is not UTF-8 opens), a symbolic link followed to its regular file, a FIFO, device or directory
/// refused by its kind (no thread ever blocks opening one).
struct PlayFilm {
    /// The file, opened and checked; `--serve` serves from this descriptor.
    let opened: OpenedFile
    /// The path the players open: as typed, the link's real path when the name is a link, or the descriptor's
    /// (`/proc/self/fd/N`) when the path is not UTF-8 and so cannot be given as a Swift path.
    let playURL: URL
    /// The file's name, printable (controls and bytes that are not UTF-8 escaped).
    var shownName: String { opened.shownName }
}

extension PlayCommand {
    /// Opens the film named on the command line; exits with status 2 and the reason when it is not a regular,
    /// readable file.
    func openFilm() -> PlayFilm {
        let bytes = CommandLineBytes.argument(matching: file)
        let opened: OpenedFile
        do { opened = try OpenedFile.open(bytes: bytes) } catch { Self.fail(error.description) }
        return PlayFilm(opened: opened, playURL: Self.playablePath(bytes, descriptor: opened.descriptor))
    }

    /// The path as typed when it is UTF-8 and not a link; the link's real path (UTF-8); else the descriptor's path.
    static func playablePath(_ bytes: [UInt8], descriptor: Int32) -> URL {
        let cPath = bytes.map { CChar(bitPattern: $0) } + [0]
        var info = stat()
        if let text = String(bytes: bytes, encoding: .utf8), lstat(cPath, &info) == 0, info.st_mode & S_IFMT != S_IFLNK {
            return URL(fileURLWithPath: text)
        }
        if let resolved = realpath(cPath, nil) {
            defer { free(resolved) }
            let real = Array(UnsafeBufferPointer(start: UnsafeRawPointer(resolved).assumingMemoryBound(to: UInt8.self),
                                                 count: strlen(resolved)))
            if let text = String(bytes: real, encoding: .utf8) { return URL(fileURLWithPath: text) }
        }
        return URL(fileURLWithPath: "/proc/self/fd/\(descriptor)")
    }
}
