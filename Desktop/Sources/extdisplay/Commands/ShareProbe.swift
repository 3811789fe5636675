import DesktopVideo
import Foundation

/// What `list` reports about where a `--share camera` could publish: the PipeWire socket and the video devices.
enum ShareProbe {
    /// A `/dev/video*` device.
    struct VideoDevice: Hashable {
        /// `/dev/video7`.
        var path: String
        /// The name the driver gives it (sysfs), printable and short.
        var name: String
        /// Whether it is a v4l2loopback device, by the rule `--share camera` chooses its device with
        /// (``DesktopVideo/V4L2Loopback/devices(sysfs:)``: a virtual device in sysfs).
        var isLoopback: Bool
    }

    /// `$XDG_RUNTIME_DIR/pipewire-0` (or `$PIPEWIRE_REMOTE` there) when it exists.
    static func pipewireSocket(environment: [String: String]) -> String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else { return nil }
        let remote = environment["PIPEWIRE_REMOTE"].flatMap { $0.isEmpty || $0.contains("/") ? nil : $0 } ?? "pipewire-0"
        let path = URL(fileURLWithPath: runtime).appendingPathComponent(remote).path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Every `/dev/videoN`, in number order, with its sysfs name.
    static func videoDevices(sysfs: String = "/sys/class/video4linux", dev: String = "/dev") -> [VideoDevice] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dev)) ?? []
        let loopbacks = Set(V4L2Loopback.devices(sysfs: URL(fileURLWithPath: sysfs)).map {
            URL(fileURLWithPath: $0.device).lastPathComponent
        })
        let numbered = names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)), number >= 0 else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 }
        return numbered.prefix(64).map { _, name in
            let folder = URL(fileURLWithPath: sysfs).appendingPathComponent(name)
            let raw = (try? String(contentsOf: folder.appendingPathComponent("name"), encoding: .utf8)) ?? ""
            let printable = String(raw.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(64))
                .trimmingCharacters(in: .whitespaces)
            return VideoDevice(path: "\(dev)/\(name)", name: printable.isEmpty ? "unnamed" : printable,
                               isLoopback: loopbacks.contains(name))
        }
    }
}
