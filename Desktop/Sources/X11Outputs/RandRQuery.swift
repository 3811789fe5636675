import DesktopFiles
import DesktopModeState
import SDLWindows
import DesktopImages
import CXRandR
import ExternalDisplayKit

/// What one output with a CRTC was doing: enough to put it back exactly (mode id, position, rotation).
struct OutputState: Hashable, Sendable {
    var outputName: String
    var output: RROutput
    var crtc: RRCrtc
    var mode: RRMode
    var x: Int32
    var y: Int32
    var rotation: Rotation
}

/// One read of the RandR topology on a session's connection.
@MainActor
struct RandRQuery {
    let session: RandRSession

    /// The outputs with a CRTC (as `DesktopOutput`s) and their exact states.
    func read() -> (outputs: [DesktopOutput], states: [OutputState]) {
        let dpy = session.dpy
        guard let res = XRRGetScreenResourcesCurrent(dpy, session.root) else { return ([], []) }
        defer { XRRFreeScreenResources(res) }
        let modeInfos = Dictionary(
            (0..<Int(res.pointee.nmode)).map { (res.pointee.modes[$0].id, res.pointee.modes[$0]) },
            uniquingKeysWith: { a, _ in a })
        let primary = XRRGetOutputPrimary(dpy, session.root)
        var outputs: [DesktopOutput] = []
        var states: [OutputState] = []
        for index in 0..<Int(res.pointee.noutput) {
            let id = res.pointee.outputs[index]
            guard let (output, state) = describe(id, res, modeInfos, primary: primary) else { continue }
            outputs.append(output)
            states.append(state)
        }
        // The main display by the rule every desktop backend shares, RandR's primary output ranked first.
        let main = DesktopNaming.mainIndex(of: outputs.map {
            MainDisplayCandidate(connection: $0.display.connection, x: $0.bounds.x, y: $0.bounds.y,
                                 priority: $0.isPrimary ? 1 : nil)
        })
        for index in outputs.indices { outputs[index].isPrimary = index == main }
        return (outputs, states)
    }

    private func describe(_ id: RROutput, _ res: UnsafeMutablePointer<XRRScreenResources>,
                          _ modeInfos: [RRMode: XRRModeInfo],
                          primary: RROutput) -> (DesktopOutput, OutputState)? {
        let dpy = session.dpy
        guard let info = XRRGetOutputInfo(dpy, res, id) else { return nil }
        defer { XRRFreeOutputInfo(info) }
        let o = info.pointee
        guard o.crtc != 0, let crtc = XRRGetCrtcInfo(dpy, res, o.crtc) else { return nil }
        defer { XRRFreeCrtcInfo(crtc) }
        let c = crtc.pointee
        let outputName = String(cString: o.name)
        let offered = (0..<Int(o.nmode)).compactMap { modeInfos[o.modes[$0]] }
        let modes = DisplayNaming.unique(offered.map(Self.mode))
        let preferred = offered.prefix(Int(o.npreferred)).first.map(Self.mode)
        let current = modeInfos[c.mode].map(Self.mode) ?? DisplayMode(width: Int(c.width), height: Int(c.height))
        let name = edidName(id).map(DisplayNaming.sanitise) ?? outputName
        let display = Display(id: DisplayID(outputName), name: name.isEmpty ? outputName : name,
                              connection: DisplayNaming.connection(forOutput: outputName),
                              modes: modes, preferredMode: preferred, currentMode: current, overscan: 0)
        let output = DesktopOutput(
            display: display, outputName: outputName,
            bounds: Rect(x: Int(c.x), y: Int(c.y), width: Int(c.width), height: Int(c.height)),
            physicalSize: PhysicalSize(widthMillimetres: Int(o.mm_width), heightMillimetres: Int(o.mm_height)),
            isPrimary: id == primary)
        let state = OutputState(outputName: outputName, output: id, crtc: o.crtc, mode: c.mode,
                                x: c.x, y: c.y, rotation: c.rotation)
        return (output, state)
    }

    /// A RandR mode as a `DisplayMode`, its refresh rate from the dot clock and totals (2 decimals).
    static func mode(_ info: XRRModeInfo) -> DisplayMode {
        var lines = Double(info.vTotal)
        if info.modeFlags & XRRModeFlags(RR_DoubleScan) != 0 { lines *= 2 }
        if info.modeFlags & XRRModeFlags(RR_Interlace) != 0 { lines /= 2 }
        let total = Double(info.hTotal) * lines
        let hz = total > 0 ? Double(info.dotClock) / total : 0
        return DisplayMode(width: Int(info.width), height: Int(info.height),
                           refreshRate: (hz * 100).rounded() / 100)
    }

    /// The monitor name from the output's EDID (descriptor tag 0xFC), if it has one.
    private func edidName(_ output: RROutput) -> String? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XRRGetOutputProperty(session.dpy, output, session.edidAtom, 0, 256, 0, 0, Atom(0),
                                          &type, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, format == 8, let data, count >= 128 else { return nil }
        return DisplayNaming.edidMonitorName(Array(UnsafeBufferPointer(start: data, count: Int(count))))
    }
}
