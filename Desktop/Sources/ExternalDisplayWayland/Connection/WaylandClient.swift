import CWaylandClient
import ExternalDisplayKit
import Foundation

/// One connection to a Wayland compositor and everything it said about outputs: the registry, `wl_output`
/// (up to version 4), `zxdg_output_manager_v1` (up to 3), `zwlr_output_manager_v1` (version 2: this library
/// needs nothing later) with their heads and modes, and KWin's `kde_output_order_v1` (its outputs by priority),
/// `kde_output_device_v2` (every output's modes) and `kde_output_management_v2` (mode switches).
///
/// Not thread-safe and not isolated: used from one thread at a time (``WaylandSession`` on the main actor; the
/// exit-time mode restore on a connection of its own).
final class WaylandClient {
    /// The socket the connection went to (`wayland-1`, or an absolute path).
    let displayName: String
    let display: OpaquePointer
    let sink: UnsafeMutablePointer<edk_wl_sink>
    private var registry: OpaquePointer?
    private var xdgManager: (global: UInt32, proxy: OpaquePointer)?
    private(set) var outputManager: (global: UInt32, proxy: OpaquePointer)?
    /// `wl_output`s by proxy address, with their xdg-outputs.
    private var records: [UInt: OutputRecord] = [:]
    private var outputProxies: [UInt: (output: OpaquePointer, xdg: OpaquePointer?)] = [:]
    private var xdgOwner: [UInt: UInt] = [:]
    /// Output-management heads and modes by proxy address.
    private(set) var heads: [UInt: HeadRecord] = [:]
    private(set) var modes: [UInt: RawMode] = [:]
    /// The serial of the last `zwlr_output_manager_v1.done` (what a configuration must name).
    private(set) var serial: UInt32 = 0
    /// Whether output events arrived that their `done` has not closed yet (a reading now would be half-way).
    private var pendingOutputs = Set<UInt>()
    private var headsPending = false
    /// The outcome of the configuration in flight: nil while waiting.
    var configurationOutcome: edk_wl_event_kind?
    private var closed = false

    /// Connects to `displayName` (default: `$WAYLAND_DISPLAY`, else `wayland-0`) and reads the outputs.
    init(displayName name: String? = nil,
         environment: [String: String] = ProcessInfo.processInfo.environment) throws(WaylandError) {
        let chosen = name ?? environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? "wayland-0"
        let path: String
        if chosen.hasPrefix("/") {
            path = chosen
        } else {
            guard let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty else {
                throw .noCompositor(reason: "XDG_RUNTIME_DIR is not set, so WAYLAND_DISPLAY=\(chosen) names no socket")
            }
            path = (runtime as NSString).appendingPathComponent(chosen)
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw .noCompositor(reason: "no Wayland socket at \(path) (WAYLAND_DISPLAY=\(chosen))")
        }
        guard let display = wl_display_connect(path) else {
            throw .noCompositor(reason: "cannot connect to \(path): \(String(cString: strerror(errno)))")
        }
        self.displayName = chosen
        self.display = display
        sink = .allocate(capacity: 1)
        sink.initialize(to: edk_wl_sink(handler: { context, event in
            guard let context, let event else { return }
            Unmanaged<WaylandClient>.fromOpaque(context).takeUnretainedValue().apply(event.pointee)
        }, context: nil))
        sink.pointee.context = Unmanaged.passUnretained(self).toOpaque()
        registry = edk_registry(display, sink)
        // Globals, then what binding them brought (outputs, heads), then the xdg-outputs asked for on the way.
        for _ in 0..<3 {
            do { try roundtrip() } catch {
                close()
                throw error
            }
        }
    }

    deinit { close() }

    /// The connection's file descriptor: readable when the compositor has news.
    var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Whether the compositor offers output management (mode switching, enabled/disabled heads).
    var hasOutputManagement: Bool { outputManager != nil }
    /// Whether the compositor advertises KDE's own `kde_output_management_v2` (KWin).
    var offersKDEOutputManagement: Bool { kdeManagement != nil }
    /// KWin's `kde_output_management_v2` (mode switches), when offered.
    private(set) var kdeManagement: OpaquePointer?
    /// KWin's `kde_output_device_v2` objects by proxy address, with their globals, and their modes by proxy address.
    private(set) var kdeDevices: [UInt: KDEDeviceRecord] = [:]
    private var kdeDeviceGlobals: [UInt32: UInt] = [:]
    private(set) var kdeModes: [UInt: RawMode] = [:]

    /// The compositor's ranking of its outputs by name where it reports one outside Wayland (Mutter's primary
    /// monitor through D-Bus: 1); empty elsewhere.
    var priorities: [String: Int] = [:]
    /// KWin's `kde_output_order_v1`: output names by priority, the first primary (empty elsewhere).
    private(set) var outputOrder: [String] = []
    private var pendingOrder: [String]?
    private var orderProxy: OpaquePointer?

    /// The outputs that drive a display now.
    func outputs() -> [WaylandOutput] {
        // KWin's order ranks 1, 2, …; a ranking read outside Wayland (Mutter) comes on top of it.
        var ranks = Dictionary(outputOrder.enumerated().map { ($0.element, $0.offset + 1) }, uniquingKeysWith: min)
        ranks.merge(priorities) { _, outside in outside }
        return WaylandTopology.outputs(records.values.map(withKDEModes), heads: Array(heads.values), modes: modes,
                                       priorities: ranks)
    }

    /// `record` with the modes KWin's output device of the same name lists (KWin's `wl_output` sends only the
    /// current one).
    private func withKDEModes(_ record: OutputRecord) -> OutputRecord {
        guard let name = record.name ?? record.xdgName, let device = kdeDevices.values.first(where: { $0.name == name })
        else { return record }
        var record = record
        for id in device.modes {
            guard var mode = kdeModes[id], mode.width > 0, mode.height > 0,
                  !record.modes.contains(where: { $0.width == mode.width && $0.height == mode.height
                      && $0.milliHertz == mode.milliHertz }) else { continue }
            mode.current = false
            record.modes.append(mode)
        }
        return record
    }

    /// Whether every change announced so far has been closed by its `done` event.
    var isSettled: Bool { pendingOutputs.isEmpty && !headsPending && pendingOrder == nil }

    /// Sends what is queued and waits until the compositor has handled it (and every event it sent back).
    func roundtrip() throws(WaylandError) {
        if wl_display_roundtrip(display) < 0 { throw lost() }
    }

    /// Reads and dispatches whatever the compositor sent, without blocking.
    func dispatchAvailable() throws(WaylandError) {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { throw lost() }
        }
        _ = wl_display_flush(display)
        var fd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        if poll(&fd, 1, 0) > 0 {
            if wl_display_read_events(display) < 0 { throw lost() }
        } else {
            wl_display_cancel_read(display)
        }
        if wl_display_dispatch_pending(display) < 0 { throw lost() }
        // Handlers may have sent requests (binding a new output, asking for its xdg-output): send them now, or
        // their answers would wait for the next unrelated event.
        _ = wl_display_flush(display)
    }

    /// Dispatches (waiting up to `timeout` seconds for news) until `condition` holds; false on time-out.
    func dispatch(until condition: () -> Bool, timeout: Double) throws(WaylandError) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            _ = wl_display_flush(display)
            var fd = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(min(left, 1) * 1000))
            try dispatchAvailable()
        }
        return true
    }

    private func lost() -> WaylandError {
        let code = wl_display_get_error(display)
        return .connectionLost(reason: code == 0 ? "the compositor closed the connection"
                                              : String(cString: strerror(code)))
    }

    /// Disconnects (the compositor drops every object of this client). Safe to call twice.
    func close() {
        guard !closed else { return }
        closed = true
        wl_display_disconnect(display)
        sink.deinitialize(count: 1)
        sink.deallocate()
    }

    /// KWin's output device of this name (`kde_output_device_v2`), and what it said.
    func kdeDevice(named name: String) -> (proxy: OpaquePointer, record: KDEDeviceRecord)? {
        kdeDevices.first { $0.value.name == name }.map { (OpaquePointer(bitPattern: $0.key)!, $0.value) }
    }

    /// The proxies output management gave for a head of this name, and its mode objects.
    func head(named name: String) -> (proxy: OpaquePointer, record: HeadRecord)? {
        heads.first { $0.value.name == name }.map { (OpaquePointer(bitPattern: $0.key)!, $0.value) }
    }

    // MARK: Events

    private func apply(_ event: edk_wl_event) {
        let object = UInt(bitPattern: event.object)
        let text = event.text.map { String(cString: $0) }
        switch event.kind {
        case EDK_REGISTRY_GLOBAL: global(event.name, interface: text ?? "", version: UInt32(max(0, event.a)))
        case EDK_REGISTRY_GLOBAL_REMOVE: globalRemoved(event.name)
        case EDK_OUTPUT_GEOMETRY, EDK_OUTPUT_MODE, EDK_OUTPUT_DONE, EDK_OUTPUT_SCALE, EDK_OUTPUT_NAME,
             EDK_OUTPUT_DESCRIPTION:
            outputEvent(object, event, text)
        case EDK_XDG_LOGICAL_POSITION, EDK_XDG_LOGICAL_SIZE, EDK_XDG_DONE, EDK_XDG_NAME, EDK_XDG_DESCRIPTION:
            xdgEvent(object, event, text)
        case EDK_WLR_HEAD:
            heads[UInt(bitPattern: event.other)] = HeadRecord()
            headsPending = true
        case EDK_WLR_DONE:
            serial = UInt32(bitPattern: event.a)
            headsPending = false
        case EDK_WLR_FINISHED:
            if let manager = outputManager { edk_proxy_destroy(UnsafeMutableRawPointer(manager.proxy)) }
            outputManager = nil
            heads = [:]
            modes = [:]
            headsPending = false
        case EDK_CONFIG_SUCCEEDED, EDK_CONFIG_FAILED, EDK_CONFIG_CANCELLED:
            configurationOutcome = event.kind
        case EDK_ORDER_OUTPUT:
            pendingOrder = (pendingOrder ?? []) + [text ?? ""]
        case EDK_ORDER_DONE:
            outputOrder = pendingOrder ?? []
            pendingOrder = nil
        case EDK_KDE_DEVICE_NAME: kdeDevices[object]?.name = text
        case EDK_KDE_DEVICE_ENABLED: kdeDevices[object]?.enabled = event.a != 0
        case EDK_KDE_DEVICE_MODE:
            let mode = UInt(bitPattern: event.other)
            kdeModes[mode] = RawMode(width: 0, height: 0, milliHertz: 0)
            kdeDevices[object]?.modes.append(mode)
        case EDK_KDE_DEVICE_CURRENT_MODE: kdeDevices[object]?.currentMode = UInt(bitPattern: event.other)
        case EDK_KDE_DEVICE_DONE: break
        case EDK_KDE_MODE_SIZE:
            kdeModes[object]?.width = Int(event.a)
            kdeModes[object]?.height = Int(event.b)
        case EDK_KDE_MODE_REFRESH: kdeModes[object]?.milliHertz = Int(event.a)
        case EDK_KDE_MODE_PREFERRED: kdeModes[object]?.preferred = true
        case EDK_KDE_MODE_REMOVED:
            kdeModes[object] = nil
            for key in kdeDevices.keys { kdeDevices[key]?.modes.removeAll { $0 == object } }
            if let proxy = UnsafeMutableRawPointer(bitPattern: object) { edk_proxy_destroy(proxy) }
        default:
            headOrModeEvent(object, event, text)
        }
    }

    private func global(_ name: UInt32, interface: String, version: UInt32) {
        guard let registry else { return }
        switch interface {
        case "wl_output":
            guard let proxy = edk_bind_output(registry, name, min(version, 4), sink) else { return }
            let key = UInt(bitPattern: proxy)
            records[key] = OutputRecord(global: name)
            outputProxies[key] = (proxy, nil)
            pendingOutputs.insert(key)
            attachXDG(key)
        case "zxdg_output_manager_v1":
            guard xdgManager == nil, let proxy = edk_bind_xdg_output_manager(registry, name, min(version, 3)) else {
                return
            }
            xdgManager = (name, proxy)
            for key in outputProxies.keys { attachXDG(key) }
        case "kde_output_management_v2":
            guard kdeManagement == nil else { return }
            kdeManagement = edk_bind_kde_output_management(registry, name, min(version, 3))
        case "kde_output_device_v2":
            guard version >= 2, let proxy = edk_bind_kde_output_device(registry, name, 2, sink) else { return }
            let key = UInt(bitPattern: proxy)
            kdeDevices[key] = KDEDeviceRecord()
            kdeDeviceGlobals[name] = key
        case "kde_output_order_v1":
            guard orderProxy == nil else { return }
            orderProxy = edk_bind_output_order(registry, name, 1, sink)
        case "zwlr_output_manager_v1":
            guard outputManager == nil, let proxy = edk_bind_output_manager(registry, name, min(version, 2), sink)
            else { return }
            outputManager = (name, proxy)
            headsPending = true
        default:
            break
        }
    }

    private func attachXDG(_ key: UInt) {
        guard let manager = xdgManager?.proxy, let entry = outputProxies[key], entry.xdg == nil,
              let xdg = edk_get_xdg_output(manager, entry.output, sink) else { return }
        outputProxies[key]?.xdg = xdg
        xdgOwner[UInt(bitPattern: xdg)] = key
        pendingOutputs.insert(key)
    }

    private func globalRemoved(_ name: UInt32) {
        if let (key, _) = records.first(where: { $0.value.global == name }) {
            if let entry = outputProxies[key] {
                if let xdg = entry.xdg {
                    xdgOwner[UInt(bitPattern: xdg)] = nil
                    edk_xdg_output_destroy(xdg)
                }
                edk_output_release(entry.output)
            }
            records[key] = nil
            outputProxies[key] = nil
            pendingOutputs.remove(key)
        } else if xdgManager?.global == name {
            xdgManager = nil
        } else if let key = kdeDeviceGlobals.removeValue(forKey: name) {
            // kde_output_device_v2 has no destructor request: the client side goes, with the modes it announced.
            for mode in kdeDevices[key]?.modes ?? [] { kdeModes[mode] = nil }
            kdeDevices[key] = nil
            if let proxy = UnsafeMutableRawPointer(bitPattern: key) { edk_proxy_destroy(proxy) }
        }
    }

    private func outputEvent(_ key: UInt, _ e: edk_wl_event, _ text: String?) {
        guard var record = records[key] else { return }
        switch e.kind {
        case EDK_OUTPUT_GEOMETRY:
            record.geometryX = Int(e.a)
            record.geometryY = Int(e.b)
            record.physicalWidth = Int(e.c)
            record.physicalHeight = Int(e.d)
            record.make = text ?? ""
            record.model = e.text2.map { String(cString: $0) } ?? ""
        case EDK_OUTPUT_MODE:
            let mode = RawMode(width: Int(e.b), height: Int(e.c), milliHertz: Int(e.d), current: e.a & 1 != 0,
                               preferred: e.a & 2 != 0)
            if mode.current { record.modes = record.modes.map { var m = $0; m.current = false; return m } }
            record.modes.removeAll { $0.width == mode.width && $0.height == mode.height && $0.milliHertz == mode.milliHertz }
            record.modes.append(mode)
        case EDK_OUTPUT_SCALE: record.integerScale = Int(e.a)
        case EDK_OUTPUT_NAME: record.name = text
        case EDK_OUTPUT_DESCRIPTION: record.description = text
        case EDK_OUTPUT_DONE:
            record.done = true
            pendingOutputs.remove(key)
            records[key] = record
            return
        default: break
        }
        pendingOutputs.insert(key)
        records[key] = record
    }

    private func xdgEvent(_ xdgKey: UInt, _ e: edk_wl_event, _ text: String?) {
        guard let key = xdgOwner[xdgKey], var record = records[key] else { return }
        switch e.kind {
        case EDK_XDG_LOGICAL_POSITION: record.logicalPosition = (Int(e.a), Int(e.b))
        case EDK_XDG_LOGICAL_SIZE: record.logicalSize = (Int(e.a), Int(e.b))
        case EDK_XDG_NAME: record.xdgName = text
        case EDK_XDG_DESCRIPTION: record.xdgDescription = text
        default: break  // xdg_output.done: version 3 closes xdg-output changes with wl_output.done instead
        }
        records[key] = record
        if e.kind == EDK_XDG_DONE { pendingOutputs.remove(key) }
    }

    private func headOrModeEvent(_ key: UInt, _ e: edk_wl_event, _ text: String?) {
        if modes[key] != nil || e.kind == EDK_MODE_SIZE || e.kind == EDK_MODE_REFRESH || e.kind == EDK_MODE_PREFERRED
            || e.kind == EDK_MODE_FINISHED {
            modeEvent(key, e)
            return
        }
        guard var head = heads[key] else { return }
        headsPending = true
        switch e.kind {
        case EDK_HEAD_NAME: head.name = text
        case EDK_HEAD_DESCRIPTION: head.description = text
        case EDK_HEAD_PHYSICAL_SIZE: (head.physicalWidth, head.physicalHeight) = (Int(e.a), Int(e.b))
        case EDK_HEAD_MODE:
            let mode = UInt(bitPattern: e.other)
            head.modes.append(mode)
            modes[mode] = RawMode(width: 0, height: 0, milliHertz: 0)
        case EDK_HEAD_ENABLED: head.enabled = e.a != 0
        case EDK_HEAD_CURRENT_MODE: head.currentMode = UInt(bitPattern: e.other)
        case EDK_HEAD_POSITION: (head.x, head.y) = (Int(e.a), Int(e.b))
        case EDK_HEAD_SCALE: head.scale = e.scale
        case EDK_HEAD_MAKE: head.make = text ?? ""
        case EDK_HEAD_MODEL: head.model = text ?? ""
        case EDK_HEAD_FINISHED:
            heads[key] = nil
            edk_proxy_destroy(UnsafeMutableRawPointer(bitPattern: key))
            return
        default: break
        }
        heads[key] = head
    }

    private func modeEvent(_ key: UInt, _ e: edk_wl_event) {
        switch e.kind {
        case EDK_MODE_SIZE: modes[key, default: RawMode(width: 0, height: 0, milliHertz: 0)].width = Int(e.a)
            modes[key]?.height = Int(e.b)
        case EDK_MODE_REFRESH: modes[key]?.milliHertz = Int(e.a)
        case EDK_MODE_PREFERRED: modes[key]?.preferred = true
        case EDK_MODE_FINISHED:
            modes[key] = nil
            for (headKey, var head) in heads where head.modes.contains(key) {
                head.modes.removeAll { $0 == key }
                if head.currentMode == key { head.currentMode = nil }
                heads[headKey] = head
            }
            edk_proxy_destroy(UnsafeMutableRawPointer(bitPattern: key))
        default: break
        }
    }
}
