import ArgumentParser

/// Placeholder for `extdisplay simulate`; replaced by the issue that builds it.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "simulate", abstract: "(not built yet)")

    func run() async throws {
        throw ValidationError("`extdisplay simulate` is not built yet")
    }
}
