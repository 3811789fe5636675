import ArgumentParser

/// Placeholder for `extdisplay present`; replaced by the issue that builds it.
struct PresentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "present", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("`extdisplay present` is not built yet")
    }
}
