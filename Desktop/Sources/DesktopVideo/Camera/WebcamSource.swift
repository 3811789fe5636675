import Foundation

/// Which webcam `present --share camera --webcam[=SOURCE]` puts in the corner of the camera's picture.
///
/// - ``automatic``: the first PipeWire `Video/Source` node that is not the camera extdisplay publishes, else
///   `/dev/video0`.
/// - ``pipeWire(_:)``: a PipeWire node, by its `node.name` or its `object.serial` (`pw-cli ls Node`).
/// - ``v4l2(device:)``: a V4L2 device node (`/dev/video2`).
public enum WebcamSource: Sendable, Hashable, CustomStringConvertible {
    /// The first webcam found.
    case automatic
    /// A PipeWire node, by name or serial.
    case pipeWire(String)
    /// A V4L2 device node.
    case v4l2(device: String)

    /// What `--webcam` gives when no value follows it.
    public static let automaticArgument = "auto"

    /// `--webcam`'s value: `auto` (or nothing) for ``automatic``, a path (starting with `/`) for ``v4l2(device:)``,
    /// anything else a PipeWire node name or serial; nil for an empty value.
    public init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return nil }
        if text.lowercased() == Self.automaticArgument {
            self = .automatic
        } else if text.hasPrefix("/") {
            self = .v4l2(device: text)
        } else {
            self = .pipeWire(text)
        }
    }

    /// `the first webcam found`, `PipeWire node NAME`, `V4L2 device /dev/video2`.
    public var description: String {
        switch self {
        case .automatic: "the first webcam found"
        case .pipeWire(let name): "PipeWire node \(name)"
        case .v4l2(let device): "V4L2 device \(device)"
        }
    }
}

/// Where the webcam's picture goes in the camera's frame: the bottom-right corner, about a quarter of the frame's
/// width (an even number of pixels), the webcam's aspect kept, a margin of a fortieth of the width (32 pixels at
/// 1280×720) from the right and bottom edges.
public struct WebcamPlacement: Sendable, Hashable {
    /// The camera frame's size.
    public var frameWidth: Int, frameHeight: Int

    /// The placement in a `frameWidth`×`frameHeight` frame.
    public init(frameWidth: Int, frameHeight: Int) {
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
    }

    /// The webcam picture's width: a quarter of the frame's, even, at least 2.
    public var width: Int { max(2, frameWidth / 4 / 2 * 2) }

    /// The gap between the picture and the frame's right and bottom edges.
    public var margin: Int { max(0, frameWidth / 40) }

    /// The top-left corner of a picture `width`×`height` (its width normally ``width``): `x`, `y`, which may be
    /// negative for a picture taller than the frame (its top rows are then left out).
    public func origin(width: Int, height: Int) -> (x: Int, y: Int) {
        (frameWidth - margin - width, frameHeight - margin - height)
    }

    /// Copies a `width`×`height` BGRx picture (rows of `width * 4` bytes) into a BGRx frame of this placement's
    /// size at ``origin(width:height:)``, clipped to the frame; nothing when the buffers are too small for the sizes.
    public func draw(_ picture: UnsafeRawBufferPointer, width: Int, height: Int, into frame: UnsafeMutableRawBufferPointer) {
        guard width > 0, height > 0, picture.count >= width * height * 4,
              frame.count >= frameWidth * frameHeight * 4, let source = picture.baseAddress,
              let target = frame.baseAddress else { return }
        let (x, y) = origin(width: width, height: height)
        let left = max(0, x), right = min(frameWidth, x + width)
        let top = max(0, y), bottom = min(frameHeight, y + height)
        guard left < right, top < bottom else { return }
        let bytes = (right - left) * 4
        for row in top..<bottom {
            let from = source + ((row - y) * width + (left - x)) * 4
            let to = target + (row * frameWidth + left) * 4
            to.copyMemory(from: from, byteCount: bytes)
        }
    }
}
