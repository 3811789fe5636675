import ArgumentParser
import ExternalDisplayTesting
import DesktopImages
import DesktopFiles
import DesktopModeState
import DesktopProcesses
import DesktopText
import SDLWindows
import X11Outputs
import Foundation

/// `extdisplay simulate`: replays a scenario through the engine on virtual time and prints what happened.
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay a display scenario and print what the engine did.",
        discussion: """
        A scenario is a JSON file: a device, the app's configuration and timed steps (launch, connect, \
        disconnect, modeChanged, modesChanged, requestMode, background, foreground, suspend, resume, contentReady, mirror, \
        extend, and the timing and presentation events). See Examples/Scenarios.

        Exit status: 0 when every invariant held; 1 when the trace checker found a violation (the trace is \
        still printed); 2 when the file is not a valid scenario; 74 when the output cannot be written (a full disk, \
        a closed pipe).
        """)

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, ndjson
    }

    /// The largest scenario file read: 32 MiB (about 200,000 steps).
    static let scenarioLimit = 32 << 20

    @Argument(help: "The scenario file (JSON).")
    var scenario: String

    @Option(help: "text: a readable timeline; ndjson: one JSON object per line (the trace format).")
    var format: Format = .text

    func run() async throws {
        let parsed: Scenario
        do {
            // Read as untrusted: a FIFO, device or directory is named by its kind (never read for ever), a
            // huge file refused by its size.
            let bytes = try UntrustedFile.read(URL(fileURLWithPath: scenario), limit: Self.scenarioLimit)
            parsed = try ScenarioParser.parse(Data(bytes))
        } catch let error as UntrustedFileError {
            StandardStreams.errorLine("extdisplay simulate: cannot read \(scenario): it \(error.reason)")
            throw ExitCode(2)
        } catch let error as ScenarioError {
            StandardStreams.errorLine("extdisplay simulate: \(scenario): \(error.description)")
            throw ExitCode(2)
        }
        let result = await MainActor.run { ScenarioRunner(scenario: parsed).run() }
        let output = format == .ndjson ? result.ndjson : TraceTextFormatter.render(result)
        StandardStreams.write(output)
        if !result.violations.isEmpty { throw ExitCode(1) }
    }
}
