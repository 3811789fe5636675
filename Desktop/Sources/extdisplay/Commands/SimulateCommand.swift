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

    /// The longest line of the text timeline (Unicode scalars): a summary listing thousands of displays is cut in
    /// the middle, its start and end kept.
    static let timelineLineLimit = 4_000
    /// Output is written in pieces of about this many bytes.
    static let writeSize = 1 << 16

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
            StandardStreams.errorLine("extdisplay simulate: cannot read \(PrintableText.name(scenario)): it \(error.reason)")
            throw ExitCode(2)
        } catch let error as ScenarioError {
            // The scenario's field names and values are quoted in the message: data, escaped.
            StandardStreams.errorLine("extdisplay simulate: " + PrintableText.line("\(scenario): \(error.description)"))
            throw ExitCode(2)
        }
        let result = await MainActor.run { ScenarioRunner(scenario: parsed).run() }
        // Device names, items and diagnostics come from the scenario: the text timeline escapes them line by line;
        // the NDJSON trace stays JSON (its encoder escapes C0 controls; the rest a terminal acts on becomes \uHHHH).
        // Written a piece at a time: no second copy of the whole output.
        var pending = ""
        func emit(_ line: String) {
            pending += line
            pending += "\n"
            if pending.utf8.count >= Self.writeSize {
                StandardStreams.write(pending)
                pending = ""
            }
        }
        if format == .ndjson {
            for record in result.records { emit(PrintableText.json(TraceEncoder.json(record).serialized)) }
        } else {
            let text = TraceTextFormatter.render(result)
            for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                emit(PrintableText.line(String(line), limit: Self.timelineLineLimit))
            }
        }
        StandardStreams.write(pending)
        if !result.violations.isEmpty { throw ExitCode(1) }
    }
}
