import ArgumentParser
import DesktopFiles
import DesktopModeState
import DesktopText
import DesktopVideo
import ExtDisplayCore
import ExternalDisplayPresenter
import ExternalDisplayWayland
import Foundation
import X11Outputs

/// `extdisplay doctor [DECK]`: what this machine can do, one line per capability, and the Debian package to
/// install for what is missing.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Say what this machine can do and what to install for the rest, one line per capability.",
        discussion: """
        Each line is `ok`, `missing` or `warning`, the capability, what was found, and for what is missing the \
        Debian package to install (or what to set). It checks, in order: the display server (X11 through \
        DISPLAY, Wayland through WAYLAND_DISPLAY, and the compositor where it can be told), the outputs it \
        drives (read as `extdisplay list` reads them, for the backend `present` would choose), the DejaVu fonts \
        every slide is drawn with, the PDF tools (pdftoppm and pdfinfo from poppler-utils, mutool from \
        mupdf-tools) with their versions, the video decoder process, GStreamer's video decoders with their \
        plugins' licences, the sound server (PulseAudio, or PipeWire's pulse server, as `play` reaches it), \
        the state directory for mode records, and any mode record a killed run left behind (`extdisplay \
        restore` puts its modes back). With DECK, a Markdown deck's characters are looked up in every font \
        fontconfig knows, and each script no font draws is named with the package to install; a PDF deck \
        carries its fonts and needs poppler-utils.

        Nothing is changed: no mode is restored, no file written.

        Exit status: 0 when the essentials are there (a display server with at least one output, the DejaVu \
        fonts, a usable state directory, and with DECK a font for each of its scripts and, for a PDF deck, \
        poppler-utils) even if optional parts (MuPDF, decoders, sound) are missing; 1 when an essential is \
        missing; 64 for wrong arguments; 74 when the report cannot be written.
        """)

    @Argument(help: "A deck (Markdown or PDF) whose fonts and tools to check.")
    var deck: String?

    @MainActor
    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        var report = DoctorReport()
        DoctorChecks.display(environment: environment, into: &report)
        DoctorChecks.fonts(deck: deck, into: &report)
        DoctorChecks.pdfTools(environment: environment, deckIsPDF: deck.map(DoctorChecks.isPDF) ?? false, into: &report)
        DoctorChecks.video(into: &report)
        DoctorChecks.camera(environment: environment, into: &report)
        DoctorChecks.state(environment: environment, into: &report)
        for line in report.lines { StandardStreams.line(line.text) }
        if report.lines.contains(where: { $0.status == .missing && $0.essential }) {
            StandardStreams.errorLine("extdisplay doctor: an essential is missing (the lines marked `missing` "
                                      + "above say what to install)")
            throw ExitCode(1)
        }
    }
}

/// The lines `doctor` prints, in order.
struct DoctorReport {
    /// One line: a capability, what was found, what to install.
    struct Line {
        /// Whether the capability is there.
        enum Status: String { case ok, missing, warning }
        var status: Status
        var topic: String
        var detail: String
        /// The Debian package (or the step) that brings what is missing.
        var install: String?
        /// Whether `doctor` fails (status 1) without it.
        var essential: Bool

        /// `missing  pdf tools   pdftoppm not found on PATH; install poppler-utils`.
        var text: String {
            let status = self.status.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0)
            let topic = self.topic.padding(toLength: 13, withPad: " ", startingAt: 0)
            let install = install.map { "; install \($0)" } ?? ""
            return PrintableText.line("\(status) \(topic) \(detail)\(install)", limit: 1000)
        }
    }

    private(set) var lines: [Line] = []

    mutating func ok(_ topic: String, _ detail: String) {
        lines.append(Line(status: .ok, topic: topic, detail: detail, install: nil, essential: false))
    }

    mutating func missing(_ topic: String, _ detail: String, install: String?, essential: Bool) {
        lines.append(Line(status: .missing, topic: topic, detail: detail, install: install, essential: essential))
    }

    mutating func warning(_ topic: String, _ detail: String) {
        lines.append(Line(status: .warning, topic: topic, detail: detail, install: nil, essential: false))
    }
}

/// The checks behind `doctor`, one function per group of lines.
enum DoctorChecks {
    /// The display server `present` would use (``PresenterBackend``'s rule) and the outputs it drives, read as
    /// `list` reads them; the other server too when both are set (XWayland).
    @MainActor
    static func display(environment: [String: String], into report: inout DoctorReport) {
        let servers = PresenterBackend.servers(in: environment)
        guard case .success(let backend) = PresenterBackend.choose(.auto, environment: environment), backend != .headless else {
            report.missing("display", "no display server: neither WAYLAND_DISPLAY nor DISPLAY is set; start a desktop session "
                           + "(X11 or Wayland), or run headless: `extdisplay present DECK --simulate …`", install: nil,
                           essential: true)
            return
        }
        let desktop = environment["XDG_CURRENT_DESKTOP"].flatMap { $0.isEmpty ? nil : $0 }
        switch backend {
        case .wayland:
            let name = environment["WAYLAND_DISPLAY"] ?? ""
            do {
                let session = try WaylandSession.open()
                let outputs = session.outputs()
                let compositor = compositorName(method: session.modeSwitchingMethod, desktop: desktop)
                session.close()
                report.ok("display", "Wayland on \(name)\(compositor.map { ", \($0)" } ?? "")"
                          + (servers.contains(.x11) ? " (X11 too: DISPLAY=\(environment["DISPLAY"] ?? ""), XWayland)" : ""))
                outputsLine(outputs.filter(\.isMain) + outputs.filter { !$0.isMain },
                            name: { "\($0.outputName) \($0.display.currentMode)\($0.isMain ? " (main)" : "")" }, into: &report)
            } catch {
                report.missing("display", "WAYLAND_DISPLAY=\(name) but no compositor answers: \(error)",
                               install: nil, essential: true)
            }
        case .x11, .headless:
            let name = environment["DISPLAY"] ?? ""
            do {
                let session = try RandRSession.open()
                let outputs = session.outputs()
                session.close()
                report.ok("display", "X11 on \(name)\(desktop.map { ", desktop \($0)" } ?? "")")
                outputsLine(outputs.filter(\.isPrimary) + outputs.filter { !$0.isPrimary },
                            name: { "\($0.outputName) \($0.display.currentMode)\($0.isPrimary ? " (main)" : "")" },
                            into: &report)
            } catch {
                report.missing("display", "DISPLAY=\(name) but \(error)", install: nil, essential: true)
            }
        }
    }

    /// The compositor, from how it lets clients switch modes and from `XDG_CURRENT_DESKTOP`.
    static func compositorName(method: String?, desktop: String?) -> String? {
        let byMethod: String? = switch method {
        case "wlr-output-management": "a wlroots compositor (sway, Hyprland …)"
        case "org.gnome.Mutter.DisplayConfig": "Mutter (GNOME)"
        case "kde-output-management-v2": "KWin (KDE)"
        default: nil
        }
        switch (byMethod, desktop) {
        case (let compositor?, let desktop?): return "\(compositor), desktop \(desktop)"
        case (let compositor?, nil): return compositor
        case (nil, let desktop?): return "desktop \(desktop) (modes cannot be switched from here)"
        case (nil, nil): return "a compositor that offers no mode switching"
        }
    }

    private static func outputsLine<Output>(_ outputs: [Output], name: (Output) -> String,
                                            into report: inout DoctorReport) {
        if outputs.isEmpty {
            report.missing("outputs", "the display server drives no output: connect a monitor or switch one on", install: nil,
                           essential: true)
        } else {
            report.ok("outputs", "\(outputs.count): " + outputs.map(name).joined(separator: ", "))
        }
    }

    /// Whether a deck path names a PDF (by its ending, as `present` decides).
    static func isPDF(_ path: String) -> Bool { path.lowercased().hasSuffix(".pdf") }

    /// DejaVu (every slide's text) and, for a Markdown deck, a font for each script it writes in.
    static func fonts(deck: String?, into report: inout DoctorReport) {
        if let directory = CanvasFont.findFontDirectory() {
            report.ok("fonts", "DejaVu in \(directory)")
        } else {
            report.missing("fonts", "DejaVuSans.ttf is in none of " + CanvasFont.fontDirectoryCandidates().joined(separator: ", "),
                           install: "fonts-dejavu-core (or set EXTDISPLAY_FONT_DIR)", essential: true)
        }
        guard let deck else { return }
        if isPDF(deck) {
            report.ok("deck fonts", "\(PrintableText.name(deck)) is a PDF: it carries its own fonts")
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try UntrustedFile.read(URL(fileURLWithPath: deck), limit: 32 << 20)
        } catch {
            report.missing("deck fonts", "cannot read \(PrintableText.name(deck)): it \(error.reason)", install: nil,
                           essential: true)
            return
        }
        let gaps = FontCoverage.gaps(in: String(decoding: bytes, as: UTF8.self), fallback: .shared)
        if gaps.isEmpty {
            report.ok("deck fonts", "every character of \(PrintableText.name(deck)) has a font")
        }
        for gap in gaps {
            report.missing("deck fonts", "\(gap.count) character(s) of script \(gap.script) in \(PrintableText.name(deck)) "
                           + "have no font (\(gap.example) …)", install: gap.package, essential: true)
        }
    }

    /// A tool the presenter runs, the package it comes in, and whether it is essential here.
    struct Tool {
        var name: String
        var package: String
        var use: String
        var essential: Bool
    }

    /// poppler's `pdftoppm` and `pdfinfo` (PDF decks) and MuPDF's `mutool` (page labels, clips), found on `PATH`.
    static func pdfTools(environment: [String: String], deckIsPDF: Bool, into report: inout DoctorReport) {
        let tools = [
            Tool(name: "pdftoppm", package: "poppler-utils", use: "PDF pages", essential: deckIsPDF),
            Tool(name: "pdfinfo", package: "poppler-utils", use: "PDF page sizes and links", essential: deckIsPDF),
            Tool(name: "mutool", package: "mupdf-tools", use: "PDF page labels and clips", essential: false),
        ]
        for tool in tools {
            guard let path = findOnPath(tool.name, environment: environment) else {
                report.missing("pdf tools", "\(tool.name) (\(tool.use)) is not on PATH", install: tool.package,
                               essential: tool.essential)
                continue
            }
            report.ok("pdf tools", "\(tool.name) \(version(of: path) ?? "(version unknown)") at \(path) (\(tool.use))")
        }
    }

    /// The first executable file named `tool` in `PATH`'s folders.
    static func findOnPath(_ tool: String, environment: [String: String]) -> String? {
        let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return folders.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(tool).path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The version a tool prints for `-v` (poppler and MuPDF both do; poppler on standard error), bounded to 5 s.
    static func version(of path: String) -> String? {
        guard let result = try? ToolProcess.run(path, ["-v"], timeout: 5, outputLimit: 64 << 10) else { return nil }
        let text = String(decoding: result.output, as: UTF8.self) + "\n" + result.errors
        guard let line = text.split(separator: "\n").first(where: { $0.contains("version") }),
              let range = line.range(of: "version ") else { return nil }
        return String(line[range.upperBound...].prefix(40)).trimmingCharacters(in: .whitespaces)
    }

    /// The decoder process, GStreamer's decoders per codec, and the sound server.
    static func video(into report: inout DoctorReport) {
        let worker = PlaybackCapabilities.decoderProcessPath
        if FileManager.default.isExecutableFile(atPath: worker) {
            report.ok("video", "decoder process \(worker)")
        } else {
            report.missing("video", "the decoder process \(worker) is missing (clips and `play` cannot decode): "
                           + "extdisplay-decoder belongs next to extdisplay (reinstall extdisplay)", install: nil, essential: false)
        }
        switch PlaybackCapabilities.decoders() {
        case .failure(let failure):
            report.missing("video", failure.description, install: "gstreamer1.0-plugins-base", essential: false)
        case .success(let codecs):
            for codec in codecs {
                if let decoder = codec.decoder {
                    let note = codec.note.isEmpty ? "" : "; \(codec.note)"
                    report.ok("video", "\(codec.name): \(decoder) (plugin licence \(codec.licence ?? "unknown")\(note))")
                } else {
                    report.missing("video", "\(codec.name): no decoder", install: codec.package, essential: false)
                }
            }
        }
        if let problem = PlaybackCapabilities.soundServerProblem() {
            report.missing("sound", problem, install: "pipewire-pulse (or pulseaudio) and gstreamer1.0-plugins-good",
                           essential: false)
        } else {
            report.ok("sound", "a sound server answers (PulseAudio, or PipeWire's pulse server)")
        }
    }

    /// Where `present --share camera` would publish (the rule the camera itself chooses by), whether that is
    /// there, and the GStreamer elements it needs; never essential.
    static func camera(environment: [String: String], into report: inout DoctorReport) {
        let destination: CameraDestination
        do { destination = try CameraDestination.choose(environment: environment) } catch {
            report.warning("camera", error.description)
            return
        }
        if let missing = CameraStream.missingPiece(for: destination) {
            let package = if case .pipeWire = destination { "gstreamer1.0-pipewire" } else { "gstreamer1.0-plugins-good" }
            report.missing("camera", missing.description, install: package, essential: false)
            return
        }
        let browsers = "browsers and most call apps read V4L2 cameras: `sudo modprobe v4l2loopback exclusive_caps=1 "
            + "card_label=extdisplay` (package v4l2loopback-dkms)"
        switch destination {
        case .v4l2Loopback(let device):
            if FileManager.default.fileExists(atPath: device) {
                report.ok("camera", "--share camera publishes on the v4l2loopback device \(device)")
            } else {
                report.missing("camera", "\(CameraDestination.environmentKey) names \(device), which does not exist",
                               install: "v4l2loopback-dkms, then `sudo modprobe v4l2loopback exclusive_caps=1`",
                               essential: false)
            }
        case .pipeWire(let name, _):
            if let socket = ShareProbe.pipewireSocket(environment: environment) {
                report.ok("camera", "--share camera publishes the PipeWire camera node \(name) (\(socket)); \(browsers)")
            } else {
                report.missing("camera", "no PipeWire daemon in this session (no socket in XDG_RUNTIME_DIR) and no "
                               + "v4l2loopback device: --share camera has nowhere to publish",
                               install: "pipewire (your desktop session starts it), or v4l2loopback-dkms", essential: false)
            }
        }
    }

    /// The folder mode records are written to, and any record left in it.
    static func state(environment: [String: String], into report: inout DoctorReport) {
        let directory = ModeStateStore.directory(environment: environment)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder) {
            if isFolder.boolValue, access(directory.path, W_OK | X_OK) == 0 {
                report.ok("state", "mode records go to \(directory.path)")
            } else {
                report.missing("state", "\(directory.path) is not a folder this user can write: remove it, or set "
                               + "EXTDISPLAY_STATE_DIR to a private folder", install: nil, essential: true)
                return
            }
        } else {
            let parent = nearestExistingFolder(of: directory)
            if access(parent.path, W_OK | X_OK) == 0 {
                report.ok("state", "mode records go to \(directory.path) (made at the first mode switch)")
            } else {
                report.missing("state", "\(directory.path) cannot be made: \(parent.path) is not writable; set "
                               + "EXTDISPLAY_STATE_DIR to a private folder", install: nil, essential: true)
            }
            return
        }
        let records = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasPrefix("modes-") && $0.hasSuffix(".json") }.sorted()
        for record in records {
            report.warning("mode record", "\(directory.appendingPathComponent(record).path) was left by a run that "
                           + "did not end cleanly: `extdisplay restore` puts those modes back")
        }
    }

    /// `url` itself or the nearest folder above it that exists.
    private static func nearestExistingFolder(of url: URL) -> URL {
        var folder = url
        while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/" {
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }
}
