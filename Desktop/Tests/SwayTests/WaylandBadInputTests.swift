import Foundation
import Testing

/// What a careless user can do to `list` and `watch` on Wayland: each gets one clear line and a non-zero
/// status, never a trap (a status of 128 or more would be a signal).
@Suite("Wayland bad input")
struct WaylandBadInputTests {
    private func runCase(_ arguments: [String], _ environment: [String: String?]) throws -> CommandResult {
        try runToEnd(try Repository.extdisplay().path, arguments, environment: environment)
    }

    @Test("an unknown backend is refused, naming the three choices")
    func unknownBackend() throws {
        for command in ["list", "watch"] {
            let result = try runCase([command, "--backend", "mir"], [:])
            #expect(result.status != 0 && result.status < 128, "\(command): \(result.status)")
            #expect(result.stderr.contains("auto") && result.stderr.contains("x11") && result.stderr.contains("wayland"),
                    "\(result.stderr)")
        }
    }

    @Test("WAYLAND_DISPLAY pointing nowhere: one line saying which socket is missing, status 1")
    func nowhere() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("edk-wl-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let notASocket = empty.appendingPathComponent("wayland-file")
        try Data("x".utf8).write(to: notASocket)
        let cases: [([String], [String: String?], String)] = [
            (["list"], ["WAYLAND_DISPLAY": "wayland-77", "XDG_RUNTIME_DIR": empty.path],
             "no Wayland socket at \(empty.path)/wayland-77"),
            (["watch", "--json"], ["WAYLAND_DISPLAY": "wayland-77", "XDG_RUNTIME_DIR": empty.path],
             "no Wayland socket at \(empty.path)/wayland-77"),
            (["list", "--backend", "wayland"], ["WAYLAND_DISPLAY": "wayland-file", "XDG_RUNTIME_DIR": empty.path],
             "no Wayland socket at \(notASocket.path)"),
            (["list"], ["WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": nil], "XDG_RUNTIME_DIR is not set"),
            (["list", "--backend", "wayland"], ["WAYLAND_DISPLAY": nil, "XDG_RUNTIME_DIR": empty.path],
             "no Wayland socket at \(empty.path)/wayland-0"),
        ]
        for (arguments, environment, message) in cases {
            let result = try runCase(arguments, environment.merging(["DISPLAY": nil]) { a, _ in a })
            #expect(result.status == 1, "\(arguments) \(environment): status \(result.status), \(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(result.stderr.contains("--backend x11"), "\(result.stderr)")
        }
    }

    @Test("--set-mode on an unknown output or an unoffered size: clear message, status 1, nothing switched")
    func badModeRequests() throws {
        let sway = try SwayCompositor()
        defer { sway.stop() }
        let result = try runCase(["watch", "--set-mode", "HDMI-A-9=1024x768"], sway.environment)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no display on output HDMI-A-9"), "\(result.stderr)")
        let malformed = try runCase(["watch", "--set-mode", "HEADLESS-2=big"], sway.environment)
        #expect(malformed.status != 0 && malformed.status < 128)
        #expect(malformed.stderr.contains("OUTPUT=WIDTHxHEIGHT"), "\(malformed.stderr)")
        let outputs = try sway.outputs()
        #expect(outputs.first { $0.name == "HEADLESS-2" }?.currentWidth == 1280)
    }
}
