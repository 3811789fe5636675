import ArgumentParser

/// Placeholder for `extdisplay nowplaying`; replaced by the issue that builds it.
struct NowPlayingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "nowplaying", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("`extdisplay nowplaying` is not built yet")
    }
}
