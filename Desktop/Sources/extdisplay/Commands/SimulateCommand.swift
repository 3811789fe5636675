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
        let stream: ScenarioStream
        do {
            // Read as untrusted: a FIFO, device or directory is named by its kind (never read for ever), a
            // huge file refused by its size. The whole scenario is checked here, before any output; its steps are
            // then read as they are replayed.
            let bytes = try UntrustedFile.read(URL(fileURLWithPath: scenario), limit: Self.scenarioLimit)
            stream = try ScenarioStream(bytes: bytes)
        } catch let error as UntrustedFileError {
            StandardStreams.errorLine("extdisplay simulate: cannot read \(PrintableText.name(scenario)): it \(error.reason)")
            throw ExitCode(2)
        } catch let error as ScenarioError {
            // The scenario's field names and values are quoted in the message: data, escaped.
            StandardStreams.errorLine("extdisplay simulate: " + PrintableText.line("\(scenario): \(error.description)"))
            throw ExitCode(2)
        }
        let format = format
        let violated = await MainActor.run { Self.replay(stream, format: format) }
        if violated { throw ExitCode(1) }
    }

    /// Replays the scenario and writes each record as it is made (memory stays flat in the number of steps);
    /// returns whether the checker found a violation.
    @MainActor
    static func replay(_ stream: ScenarioStream, format: Format) -> Bool {
        // Device names, items and diagnostics come from the scenario: the text timeline escapes them line by line;
        // the NDJSON trace stays JSON (its encoder escapes C0 controls; the rest a terminal acts on becomes \uHHHH).
        // Written a piece at a time.
        var pending = ""
        func emit(_ line: String) {
            pending += line
            pending += "\n"
            if pending.utf8.count >= writeSize {
                StandardStreams.write(pending)
                pending = ""
            }
        }
        // The timeline is the records' lines joined by newlines and cut at newlines (a summary spans several):
        // the text after the last newline waits for the next record (a line ending in a carriage return joins
        // the newline after it, as it did when the whole text was cut at once).
        var carry: String?
        func emitText(_ record: TraceRecord) {
            guard let line = TraceTextFormatter.line(for: record) else { return }
            let text = carry.map { $0 + "\n" + line } ?? line
            var pieces = text.split(separator: "\n", omittingEmptySubsequences: false)
            carry = String(pieces.removeLast())
            for piece in pieces { emit(PrintableText.line(String(piece), limit: timelineLineLimit)) }
        }
        let runner = ScenarioRunner(scenario: stream.header)
        // The trace is the record: the simulated platform need not keep its own log of every command.
        runner.platform.keepsHistory = false
        let result = runner.run(steps: stream.steps) { record in
            if format == .ndjson {
                emit(PrintableText.json(TraceEncoder.json(record).serialized))
            } else {
                emitText(record)
            }
        }
        if format == .text {
            // The whole text ended with a newline: what follows it was never a line.
            let text = (carry ?? "") + "\n"
            var pieces = text.split(separator: "\n", omittingEmptySubsequences: false)
            pieces.removeLast()
            for piece in pieces { emit(PrintableText.line(String(piece), limit: timelineLineLimit)) }
        }
        StandardStreams.write(pending)
        return !result.violations.isEmpty
    }
}
