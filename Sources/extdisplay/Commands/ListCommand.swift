import ArgumentParser

/// Placeholder for `extdisplay list`; replaced by the issue that builds it.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("`extdisplay list` is not built yet")
    }
}
