#if os(Linux)
import CSDL2
import CXInput2

/// A pen tablet on X11, read from XInput 2 with its pressure. SDL 2 reports a tablet's pen as the mouse and drops
/// the pressure; the X server still sends it, as the valuator labelled "Abs Pressure" of the pen's device. This
/// selects the button and motion events of each such device on the console's window, on SDL's own connection, and
/// an SDL event filter turns each into an SDL user event while SDL dispatches it — so the pen's events stand in
/// SDL's queue in the server's order among the mouse and touch events (two connections could not say which came
/// first). The pen's place comes from its own axes through the device's coordinate transformation matrix, not from
/// the pointer it shares with the touch screen: a palm on the screen moves that pointer while the pen draws.
///
/// There is no loop, timer or connection of its own: ``event(_:)`` reads the SDL events the console handles. The
/// devices are those present when it starts (a pen plugged in later is the mouse until the next run). One per
/// process: it installs SDL's event filter.
@MainActor
public final class X11Pen {
    /// What the pen did, at (x, y) in the window's pixels, with its pressure 0…1.
    public enum Event: Hashable, Sendable {
        /// The tip touched (button 1 pressed).
        case down(x: Double, y: Double, pressure: Double)
        /// The pen moved (touching or hovering).
        case move(x: Double, y: Double, pressure: Double)
        /// The tip lifted.
        case up(x: Double, y: Double)
    }

    /// A valuator: its number and range.
    private struct Axis {
        var number: Int32
        var minimum: Double
        var maximum: Double
    }

    /// A pen device's axes, transformation and last values.
    private struct Pen {
        var pressure: Axis
        var x: Axis?
        var y: Axis?
        /// The coordinate transformation matrix, row by row (identity when the device has none).
        var matrix: [Double] = [1, 0, 0, 0, 1, 0, 0, 0, 1]
        var last: (x: Double?, y: Double?, pressure: Double?) = (nil, nil, nil)
    }

    private let display: OpaquePointer
    private var pens: [Int32: Pen]
    /// Touch screens' pressure axes ("Abs MT Pressure"), by device id.
    private let touches: [Int32: Axis]
    private let eventType: UInt32
    /// The root window's size, read again at each touch of the tip (a screen grows when a projector is added).
    private var screen: (width: Double, height: Double) = (0, 0)

    /// Selects every pen's events on the X window of `window` (an SDL window on SDL's X11 driver); nil on another
    /// driver, without XInput 2.2, or without a device that reports pressure (a desktop without a pen).
    public init?(window: OpaquePointer) {
        guard let display = edk_pen_window_display(window) else { return nil }
        let id = Window(edk_pen_window_id(window))
        var opcode: Int32 = 0, event: Int32 = 0, error: Int32 = 0
        var major: Int32 = 2, minor: Int32 = 2
        guard id != 0, XQueryExtension(display, "XInputExtension", &opcode, &event, &error) != 0,
              XIQueryVersion(display, &major, &minor) == Success, major >= 2 else { return nil }
        let pens = Self.pens(display).filter { edk_xi_select_pen(display, id, $0.key) == 0 }
        let touches = Self.axes(display, labelled: "Abs MT Pressure")
        guard !pens.isEmpty || !touches.isEmpty, pens.count <= 8, touches.count <= 8 else { return nil }
        let ids = pens.keys.sorted()
        var axes: [Int32] = []
        for id in ids {
            axes += [pens[id]?.x?.number ?? -1, pens[id]?.y?.number ?? -1, pens[id]?.pressure.number ?? -1]
        }
        let touchIDs = touches.keys.sorted()
        let touchAxes = touchIDs.map { touches[$0]?.number ?? -1 }
        let type = edk_pen_install(opcode, ids, axes, Int32(ids.count), touchIDs, touchAxes, Int32(touchIDs.count))
        guard type != 0 else { return nil }
        XFlush(display)
        self.display = display
        self.pens = pens
        self.touches = touches
        eventType = type
        readScreen()
    }

    /// How many pens report pressure (for the log).
    public var deviceCount: Int { pens.count }

    /// How many touch screens report pressure (for the log).
    public var touchScreenCount: Int { touches.count }

    /// The pressure (0…1) of the touch SDL numbers `finger` (XInput 2's touch id), as its screen last reported it
    /// (SDL 2 gives an X11 touch a pressure of 1); nil when its screen reports none.
    public func touchPressure(_ finger: Int64) -> Double? {
        guard let touch = UInt32(exactly: finger) else { return nil }
        var device: Int32 = 0
        let value = edk_pen_touch_pressure(touch, &device)
        guard value.isFinite, let axis = touches[device] else { return nil }
        return Self.normalised(value, axis)
    }

    /// The pen's event an SDL event carries, if it is one (nil for every other event, and for a pen event too old
    /// to be read).
    public func event(_ sdl: SDL_Event) -> Event? {
        guard sdl.type == eventType else { return nil }
        var record = edk_pen_record()
        guard edk_pen_take(sdl.user.code, &record) == 0, var pen = pens[record.device] else { return nil }
        if record.x.isFinite { pen.last.x = record.x }
        if record.y.isFinite { pen.last.y = record.y }
        if record.pressure.isFinite { pen.last.pressure = record.pressure }
        pens[record.device] = pen
        if record.kind == XI_ButtonPress, record.detail == 1 { readScreen() }
        let pressure = pen.last.pressure.map { Self.normalised($0, pen.pressure) } ?? 1
        let (x, y) = place(of: pen, record)
        guard x.isFinite, y.isFinite else { return nil }
        switch record.kind {
        case XI_ButtonPress where record.detail == 1: return .down(x: x, y: y, pressure: pressure)
        case XI_ButtonRelease where record.detail == 1: return .up(x: x, y: y)
        case XI_Motion: return .move(x: x, y: y, pressure: pressure)
        default: return nil
        }
    }

    /// Where the pen is in the event window's pixels: from its own axes where it has them (the shared pointer may
    /// be a palm's), else the event's.
    private func place(of pen: Pen, _ record: edk_pen_record) -> (Double, Double) {
        guard let xAxis = pen.x, let yAxis = pen.y, let vx = pen.last.x, let vy = pen.last.y,
              screen.width > 1, screen.height > 1 else { return (record.event_x, record.event_y) }
        // As the server places an absolute device: its range onto 0…1, the matrix, then the screen.
        let nx = Self.normalised(vx, xAxis), ny = Self.normalised(vy, yAxis), m = pen.matrix
        let w: Double = m[6] * nx + m[7] * ny + m[8]
        guard w.isFinite, abs(w) > 1e-9 else { return (record.event_x, record.event_y) }
        let tx: Double = m[0] * nx + m[1] * ny + m[2], ty: Double = m[3] * nx + m[4] * ny + m[5]
        let sx = tx / w * (screen.width - 1), sy = ty / w * (screen.height - 1)
        // The window's origin on the screen, from the event itself.
        return (sx - (record.root_x - record.event_x), sy - (record.root_y - record.event_y))
    }

    /// The root window's size.
    private func readScreen() {
        var root: Window = 0, x: Int32 = 0, y: Int32 = 0
        var width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
        if XGetGeometry(display, XDefaultRootWindow(display), &root, &x, &y, &width, &height, &border, &depth) != 0 {
            screen = (Double(width), Double(height))
        }
    }

    /// A raw value in the axis's range as 0…1 (a range that is empty or not finite gives full pressure).
    private static func normalised(_ value: Double, _ axis: Axis) -> Double {
        let span = axis.maximum - axis.minimum
        guard value.isFinite, span.isFinite, span > 0 else { return 1 }
        return min(1, max(0, (value - axis.minimum) / span))
    }

    /// Every slave pointer's valuators, by device id and label.
    private static func valuators(_ display: OpaquePointer) -> [Int32: [Atom: Axis]] {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else { return [:] }
        defer { XIFreeDeviceInfo(devices) }
        var found: [Int32: [Atom: Axis]] = [:]
        for device in UnsafeBufferPointer(start: devices, count: Int(max(0, count))) where device.use == XISlavePointer {
            guard let classes = device.classes else { continue }
            for entry in UnsafeBufferPointer(start: classes, count: Int(max(0, device.num_classes))) {
                guard let any = entry, any.pointee.type == XIValuatorClass else { continue }
                let valuator = UnsafeRawPointer(any).assumingMemoryBound(to: XIValuatorClassInfo.self).pointee
                guard valuator.number >= 0, valuator.number < 64, valuator.label != 0 else { continue }
                found[device.deviceid, default: [:]][valuator.label] =
                    Axis(number: valuator.number, minimum: valuator.min, maximum: valuator.max)
            }
        }
        return found
    }

    /// Every slave pointer's valuator labelled `name`, by device id.
    private static func axes(_ display: OpaquePointer, labelled name: String) -> [Int32: Axis] {
        let label = XInternAtom(display, name, 1)
        guard label != 0 else { return [:] }
        return valuators(display).compactMapValues { $0[label] }
    }

    /// Every slave pointer with a valuator labelled "Abs Pressure", by device id, with its "Abs X" and "Abs Y"
    /// axes and its coordinate transformation matrix.
    private static func pens(_ display: OpaquePointer) -> [Int32: Pen] {
        let labels = [XInternAtom(display, "Abs Pressure", 1), XInternAtom(display, "Abs X", 1), XInternAtom(display, "Abs Y", 1)]
        guard labels[0] != 0 else { return [:] }
        var found: [Int32: Pen] = [:]
        for (device, axes) in valuators(display) {
            guard let pressure = axes[labels[0]] else { continue }
            var pen = Pen(pressure: pressure, x: axes[labels[1]], y: axes[labels[2]])
            var matrix = [Float](repeating: 0, count: 9)
            if edk_xi_transformation(display, device, &matrix) == 0, matrix.allSatisfy(\.isFinite) {
                pen.matrix = matrix.map(Double.init)
            }
            found[device] = pen
        }
        return found
    }
}
#endif
