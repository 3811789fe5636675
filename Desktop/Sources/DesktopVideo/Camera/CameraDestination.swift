public import Foundation

/// Where `present --share camera` publishes the audience view.
///
/// - ``pipeWire(nodeName:description:)``: a PipeWire node of media class `Video/Source` (role `Camera`) that
///   PipeWire clients list as a camera (GNOME and KDE call apps through the camera portal, OBS, `pw-dump`).
/// - ``v4l2Loopback(device:)``: a v4l2loopback device (`modprobe v4l2loopback exclusive_caps=1
///   card_label="extdisplay"`), which every V4L2 application lists as a webcam (Chromium and Firefox by default,
///   Zoom, Teams) and WirePlumber shows to PipeWire clients as well.
///
/// ``choose(environment:loopbacks:)`` picks one: `EXTDISPLAY_CAMERA_DEVICE` when set (`pipewire`, or a
/// `/dev/videoN` path), else the first v4l2loopback device found (it reaches both kinds of application), else
/// PipeWire.
public enum CameraDestination: Sendable, Hashable, CustomStringConvertible {
    /// A PipeWire `Video/Source` node with this `node.name` and `node.description`.
    case pipeWire(nodeName: String, description: String)
    /// A v4l2loopback device node (`/dev/video9`).
    case v4l2Loopback(device: String)

    /// The PipeWire node `extdisplay-camera`, described as "extdisplay audience" (what call apps list).
    public static let defaultPipeWire = CameraDestination.pipeWire(nodeName: "extdisplay-camera",
                                                                    description: "extdisplay audience")

    /// The environment variable that chooses the destination: `pipewire`, or a v4l2loopback device's path.
    public static let environmentKey = "EXTDISPLAY_CAMERA_DEVICE"

    /// The destination for this run: `EXTDISPLAY_CAMERA_DEVICE` (`pipewire` or a `/dev/videoN` path) when set,
    /// else the first of `loopbacks` (``V4L2Loopback/devices(sysfs:)``), else ``defaultPipeWire``. Throws when the
    /// variable says neither.
    public static func choose(environment: [String: String] = ProcessInfo.processInfo.environment,
                              loopbacks: [V4L2Loopback] = V4L2Loopback.devices()) throws(CameraStreamError) -> CameraDestination {
        if let asked = environment[environmentKey]?.trimmingCharacters(in: .whitespaces), !asked.isEmpty {
            if asked.lowercased() == "pipewire" { return defaultPipeWire }
            guard asked.hasPrefix("/dev/") else {
                throw .badDestination("\(environmentKey)=\(asked) is neither `pipewire` nor a device path such as "
                                      + "/dev/video9: set it to one, or unset it to let extdisplay choose")
            }
            return .v4l2Loopback(device: asked)
        }
        if let first = loopbacks.first { return .v4l2Loopback(device: first.device) }
        return defaultPipeWire
    }

    /// `PipeWire node extdisplay-camera`, `v4l2loopback device /dev/video9`.
    public var description: String {
        switch self {
        case .pipeWire(let name, _): "PipeWire node \(name)"
        case .v4l2Loopback(let device): "v4l2loopback device \(device)"
        }
    }
}

/// A v4l2loopback device found in sysfs.
public struct V4L2Loopback: Sendable, Hashable {
    /// Its device node (`/dev/video9`).
    public var device: String
    /// Its card label (`card_label=` when the module was loaded; "Dummy video device (0x0000)" by default).
    public var name: String

    /// A device.
    public init(device: String, name: String) {
        self.device = device
        self.name = name
    }

    /// The v4l2loopback devices of this machine: every `videoN` under `sysfs` (`/sys/class/video4linux`) whose
    /// device is virtual (its link resolves under `/devices/virtual/`, where v4l2loopback's devices live, unlike a
    /// real webcam's) — in device number order. Empty when the folder is missing (no module loaded, a container).
    public static func devices(sysfs: URL = URL(fileURLWithPath: "/sys/class/video4linux")) -> [V4L2Loopback] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: sysfs.path) else { return [] }
        let found: [(Int, V4L2Loopback)] = entries.compactMap { entry in
            guard entry.hasPrefix("video"), let number = Int(entry.dropFirst(5)) else { return nil }
            let link = sysfs.appendingPathComponent(entry)
            let resolved = link.resolvingSymlinksInPath().path
            guard resolved.contains("/devices/virtual/") else { return nil }
            let name = (try? String(contentsOf: link.appendingPathComponent("name"), encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return (number, V4L2Loopback(device: "/dev/\(entry)", name: name))
        }
        return found.sorted { $0.0 < $1.0 }.map(\.1)
    }
}

/// The camera could not be published.
public enum CameraStreamError: Error, Sendable, Hashable, CustomStringConvertible {
    /// GStreamer or one of the elements the camera needs is missing (the message says what to install).
    case unavailable(String)
    /// `EXTDISPLAY_CAMERA_DEVICE` names no destination.
    case badDestination(String)
    /// The size asked for cannot be published.
    case badSize(width: Int, height: Int)
    /// The sink refused to start: no PipeWire daemon, a device that cannot be opened, a format refused.
    case refused(destination: String, reason: String, advice: String)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .unavailable(let reason): "the camera cannot be published: \(reason)"
        case .badDestination(let reason): "the camera cannot be published: \(reason)"
        case .badSize(let width, let height):
            "the camera cannot be published at \(width)×\(height): I420 and YUY2 want an even width and height "
                + "(16 to 7680 pixels), such as --share camera=1280x720"
        case .refused(let destination, let reason, let advice):
            "the camera cannot be published on the \(destination): \(reason); \(advice)"
        }
    }
}
