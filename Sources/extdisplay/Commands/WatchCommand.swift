import ArgumentParser

/// Placeholder for `extdisplay watch`; replaced by the issue that builds it.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "watch", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("`extdisplay watch` is not built yet")
    }
}
