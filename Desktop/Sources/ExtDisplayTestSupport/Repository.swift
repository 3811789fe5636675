import Foundation

/// Where things are in the repository, for tests and benchmarks: the library package at the root, the desktop
/// package in `Desktop/`, the scripts and example decks beside them.
public enum Repository {
    /// The repository's root (the library package), found from this file's path
    /// (`Desktop/Sources/ExtDisplayTestSupport/Repository.swift`).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The desktop package (`Desktop/`).
    public static let desktop = root.appendingPathComponent("Desktop")

    /// A script under `scripts/`, e.g. `script("xorg-dummy.sh")`.
    public static func script(_ name: String) -> String {
        root.appendingPathComponent("scripts").appendingPathComponent(name).path
    }

    /// A file or folder under `Examples/`, e.g. `example("Decks/PDF")`.
    public static func example(_ path: String) -> URL {
        root.appendingPathComponent("Examples").appendingPathComponent(path)
    }

    /// The `extdisplay` the tests run: the one `scripts/test.sh` built (`EDK_EXTDISPLAY`), else the one next to
    /// the running test bundle, else `Desktop/.build/debug/extdisplay`. Throws when it is missing or older than a
    /// source file it is built from: a test never runs a binary left over from an earlier build.
    public static func extdisplay() throws(SupportError) -> URL {
        let environment = ProcessInfo.processInfo.environment["EDK_EXTDISPLAY"].map(URL.init(fileURLWithPath:))
        let nextToTests = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("extdisplay")
        let candidates = [environment, nextToTests, desktop.appendingPathComponent(".build/debug/extdisplay")]
        guard let binary = candidates.compactMap({ $0 }).first(where: {
            FileManager.default.isExecutableFile(atPath: $0.path)
        }) else {
            throw SupportError("extdisplay is not built (looked at \(candidates.compactMap { $0?.path }.joined(separator: ", "))): "
                               + "run `swift build --build-tests` in Desktop/")
        }
        if let newer = sourceNewer(than: binary) {
            throw SupportError("\(binary.path) is older than \(newer): it is stale; run `swift build --build-tests` in Desktop/")
        }
        return binary
    }

    /// A source file `extdisplay` is built from (the library's and the desktop package's, without the Apple layer,
    /// the benchmarks and this module) modified after `binary`, if any.
    public static func sourceNewer(than binary: URL) -> String? {
        let keys: Set<URLResourceKey> = [.contentModificationDateKey]
        guard let built = try? binary.resourceValues(forKeys: keys).contentModificationDate else { return binary.path }
        let skipped = ["/ExternalDisplayUIKit/", "/edk-bench/", "/present-bench/", "/browser-bench/",
                       "/ExtDisplayTestSupport/", "/CXComposite/", "/kwin-test-client/", "/.build"]
        for folder in [root.appendingPathComponent("Sources"), desktop.appendingPathComponent("Sources")] {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: Array(keys))
            while let file = files?.nextObject() as? URL {
                guard ["swift", "h", "c", "modulemap"].contains(file.pathExtension),
                      !skipped.contains(where: file.path.contains),
                      let modified = try? file.resourceValues(forKeys: keys).contentModificationDate, modified > built
                else { continue }
                return file.path
            }
        }
        return nil
    }
}
