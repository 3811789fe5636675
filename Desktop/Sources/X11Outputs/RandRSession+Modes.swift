import DesktopFiles
import DesktopModeState
import SDLWindows
import DesktopImages
import CXRandR
import ExternalDisplayKit

extension RandRSession {
    /// Puts the display on `outputName` in `mode` (the offered mode of that size whose refresh rate is
    /// closest). Before the first switch of each output — present at open or plugged in since — its current
    /// state is recorded, written to the ``ModeStateFile`` and armed for restoring: at ``close()``, at exit, on
    /// SIGINT, SIGTERM, SIGHUP and SIGQUIT, and (through the state file) after SIGKILL or a crash.
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
        let current = (0..<Int(res.pointee.nmode)).map { res.pointee.modes[$0] }.first { $0.id == state.mode }
        let entry = ModeStateFile.Entry(output: outputName, outputID: UInt(state.output), mode: UInt(state.mode),
                                        width: Int(current?.width ?? 0), height: Int(current?.height ?? 0),
                                        x: state.x, y: state.y, rotation: UInt16(state.rotation))
        do { try ModeRestoreGuard.shared.record(displayName, entry) } catch {
            throw .refused(output: outputName, detail: "the mode was not switched because it could not be recorded "
                           + "for restoring (\(error.description))")
        }
        var target = state
        target.mode = modeID
        _ = edk_take_x_error()
        if let problem = RandRApply.apply([target], dpy: dpy, root: root) {
            throw .refused(output: outputName, detail: problem)
        }
    }

    /// Puts every output this process switched back in the mode and position it had before its first switch
    /// (outputs unplugged since are skipped). Does nothing when no mode was switched.
    public func restoreInitialModes() {
        let entries = ModeRestoreGuard.shared.entries(displayName)
        guard !entries.isEmpty else { return }
        _ = RandRApply.apply(RandRApply.states(entries, dpy: dpy, root: root).states, dpy: dpy, root: root)
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
    /// The recorded entries as states of this server: each output found by name, each mode by id when its
    /// size matches, else by size among the output's modes. Entries that fit nothing are skipped with a line.
    static func states(_ entries: [ModeStateFile.Entry], dpy: OpaquePointer,
                       root: Window) -> (states: [OutputState], skipped: [String]) {
        guard let res = XRRGetScreenResourcesCurrent(dpy, root) else { return ([], ["no screen resources"]) }
        defer { XRRFreeScreenResources(res) }
        let modes = (0..<Int(res.pointee.nmode)).map { res.pointee.modes[$0] }
        var states: [OutputState] = [], skipped: [String] = []
        for entry in entries {
            var found: (RROutput, Set<RRMode>)?
            for index in 0..<Int(res.pointee.noutput) {
                let id = res.pointee.outputs[index]
                guard let info = XRRGetOutputInfo(dpy, res, id) else { continue }
                if String(cString: info.pointee.name) == entry.output {
                    found = (id, Set((0..<Int(info.pointee.nmode)).map { info.pointee.modes[$0] }))
                }
                XRRFreeOutputInfo(info)
            }
            guard let (output, offered) = found else {
                skipped.append("\(entry.output) is gone from this X server; nothing to restore there")
                continue
            }
            let sized = modes.filter { offered.contains($0.id) && Int($0.width) == entry.width && Int($0.height) == entry.height }
            guard let mode = sized.first(where: { UInt($0.id) == entry.mode }) ?? sized.first else {
                skipped.append("\(entry.output) no longer offers \(entry.width)x\(entry.height); left as it is")
                continue
            }
            states.append(OutputState(outputName: entry.output, output: output, crtc: 0, mode: mode.id,
                                      x: entry.x, y: entry.y, rotation: Rotation(entry.rotation)))
        }
        return (states, skipped)
    }

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
