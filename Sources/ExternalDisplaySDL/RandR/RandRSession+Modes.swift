import CXRandR
import ExternalDisplayKit

extension RandRSession {
    /// Puts the display on `outputName` in `mode` (the offered mode of that size whose refresh rate is
    /// closest). The first change arms the exit guard: from then on every output's mode recorded at
    /// ``open(displayName:)`` is put back at ``close()``, at exit, on SIGINT and on SIGTERM.
    public func setMode(_ mode: DisplayMode, on outputName: String) throws(RandRError) {
        guard let res = XRRGetScreenResourcesCurrent(dpy, root) else {
            throw .refused(output: outputName, detail: "no screen resources")
        }
        defer { XRRFreeScreenResources(res) }
        guard let state = RandRQuery(session: self).read().states.first(where: { $0.outputName == outputName })
        else { throw .unknownOutput(outputName) }
        guard let modeID = offeredModeID(mode, output: state.output, res) else {
            throw .modeNotOffered(output: outputName, mode: mode)
        }
        ModeRestoreGuard.shared.arm(displayName, initialState)
        var target = state
        target.mode = modeID
        _ = edk_take_x_error()
        if let problem = RandRApply.apply([target], dpy: dpy, root: root) {
            throw .refused(output: outputName, detail: problem)
        }
    }

    /// Puts every output that still has a CRTC back in the mode and position it had at
    /// ``open(displayName:)``. Does nothing when this session changed no mode.
    public func restoreInitialModes() {
        guard ModeRestoreGuard.shared.isArmed(displayName) else { return }
        _ = RandRApply.apply(initialState, dpy: dpy, root: root)
    }

    /// The id of the offered mode of `mode`'s size with the closest refresh rate.
    private func offeredModeID(_ mode: DisplayMode, output: RROutput,
                               _ res: UnsafeMutablePointer<XRRScreenResources>) -> RRMode? {
        guard let info = XRRGetOutputInfo(dpy, res, output) else { return nil }
        defer { XRRFreeOutputInfo(info) }
        let offered = Set((0..<Int(info.pointee.nmode)).map { info.pointee.modes[$0] })
        let candidates = (0..<Int(res.pointee.nmode)).map { res.pointee.modes[$0] }
            .filter { offered.contains($0.id) }
            .map { ($0.id, RandRQuery.mode($0)) }
            .filter { $0.1.size == mode.size }
        return candidates.min { abs($0.1.refreshRate - mode.refreshRate) < abs($1.1.refreshRate - mode.refreshRate) }?.0
    }
}

/// Applies recorded output states with `XRRSetCrtcConfig`, growing the X screen first when needed.
/// Used by sessions and by the exit guard (on a connection of its own, from any thread).
enum RandRApply {
    /// Applies the states whose output still has a CRTC and differs; returns a problem description or nil.
    static func apply(_ states: [OutputState], dpy: OpaquePointer, root: Window) -> String? {
        guard let res = XRRGetScreenResourcesCurrent(dpy, root) else { return "no screen resources" }
        defer { XRRFreeScreenResources(res) }
        var problem: String?
        var pending: [(OutputState, RRCrtc)] = []
        for state in states {
            guard let info = XRRGetOutputInfo(dpy, res, state.output) else { continue }
            let crtc = info.pointee.crtc
            XRRFreeOutputInfo(info)
            guard crtc != 0, let c = XRRGetCrtcInfo(dpy, res, crtc) else { continue }
            let same = c.pointee.mode == state.mode && c.pointee.x == state.x && c.pointee.y == state.y
            XRRFreeCrtcInfo(c)
            if !same { pending.append((state, crtc)) }
        }
        guard !pending.isEmpty else { return nil }
        growScreen(for: pending.map(\.0), dpy: dpy, root: root, res: res)
        for (state, crtc) in pending {
            var output = state.output
            let status = XRRSetCrtcConfig(dpy, res, crtc, Time(0), state.x, state.y, state.mode,
                                          state.rotation, &output, 1)
            XSync(dpy, 0)
            let code = edk_take_x_error()
            if status != 0 || code != 0 { problem = "status \(status), X error \(code)" }
        }
        return problem
    }

    /// Makes the X screen large enough for every CRTC after the change.
    private static func growScreen(for states: [OutputState], dpy: OpaquePointer, root: Window,
                                   res: UnsafeMutablePointer<XRRScreenResources>) {
        var width = Int32(0), height = Int32(0)
        for state in states {
            guard let mode = (0..<Int(res.pointee.nmode)).map({ res.pointee.modes[$0] })
                .first(where: { $0.id == state.mode }) else { continue }
            width = max(width, state.x + Int32(mode.width))
            height = max(height, state.y + Int32(mode.height))
        }
        for index in 0..<Int(res.pointee.ncrtc) {
            guard let c = XRRGetCrtcInfo(dpy, res, res.pointee.crtcs[index]) else { continue }
            if c.pointee.mode != 0 {
                width = max(width, c.pointee.x + Int32(c.pointee.width))
                height = max(height, c.pointee.y + Int32(c.pointee.height))
            }
            XRRFreeCrtcInfo(c)
        }
        let screen = XDefaultScreen(dpy)
        let currentWidth = XDisplayWidth(dpy, screen), currentHeight = XDisplayHeight(dpy, screen)
        guard width > currentWidth || height > currentHeight else { return }
        XRRSetScreenSize(dpy, root, max(width, currentWidth), max(height, currentHeight),
                         XDisplayWidthMM(dpy, screen), XDisplayHeightMM(dpy, screen))
        XSync(dpy, 0)
        _ = edk_take_x_error()
    }
}
