#if os(Linux)
import CSDBus
import ExternalDisplayMedia
import Foundation
import Glibc

/// A Now Playing session served as an MPRIS player on the D-Bus session bus, so desktop media widgets,
/// media keys and `playerctl` can see and control it.
///
/// The player owns a dedicated thread that runs the D-Bus connection; everything else is thread-safe. The
/// app publishes to it through a `NowPlayingSession` (the player is a `NowPlayingPublisher`) and receives
/// remote commands, already routed, on ``commands`` or the `onCommand` callback.
///
/// ```swift
/// let player = try MPRISPlayer.start(name: "presenter", identity: "Presenter",
///                                    capabilities: PlaybackCapabilities(hasNextItem: true))
/// let session = NowPlayingSession(clock: player.clock, publisher: player)
/// session.load(NowPlayingMetadata(identifier: "slide-1", title: "Welcome"), playing: true)
/// for await received in player.commands {
///     if let action = received.decision.action { session.apply(action) }
/// }
/// player.stop()
/// ```
public final class MPRISPlayer: NowPlayingPublisher, @unchecked Sendable {
    /// The bus name the player owns, `org.mpris.MediaPlayer2.<name>`.
    public let busName: String
    /// The clock used for positions; give the same clock to the `NowPlayingSession` that publishes here.
    public let clock: any MediaClock
    /// Every remote command received, with the router's decision, in arrival order. Finishes on ``stop()``
    /// or when the bus connection is lost.
    public let commands: AsyncStream<ReceivedRemoteCommand>

    private let continuation: AsyncStream<ReceivedRemoteCommand>.Continuation
    private let onCommand: (@Sendable (ReceivedRemoteCommand) -> Void)?
    private let bus: OpaquePointer
    private let timeout: Double
    private let wakeDescriptor: Int32
    private let finished = DispatchSemaphore(value: 0)

    // Guarded by `lock`.
    private let lock = NSLock()
    private var currentModel: MPRISPlayerModel
    private var outbox: [OutgoingSignal] = []
    private var isRunning = true
    private var loopError: MPRISError?
    private var volumeHandler: (@Sendable (Double) -> Void)?
    private var quitHandler: (@Sendable () -> Void)?

    private enum OutgoingSignal {
        case propertiesChanged(interface: String, changed: [MPRISEntry])
        case seeked(Int64)
    }

    /// How long the player waits for the session bus at most, in seconds: for the connection (authentication
    /// and `Hello`), for taking the name, and for flushing its last signals when it stops. A bus that accepts the
    /// connection and never answers costs this wait once and ``MPRISError/busTimedOut(address:operation:seconds:)``,
    /// not sd-bus's 90 s authentication timeout.
    public static let busTimeout = 5.0

    /// Connects to the session bus, takes the name `org.mpris.MediaPlayer2.<name>` and starts serving.
    ///
    /// - Parameters:
    ///   - name: the part after `org.mpris.MediaPlayer2.`; `playerctl -p <name>` finds the player by it.
    ///   - identity: the name media widgets show.
    ///   - capabilities: what the app can do beyond the current item (queue, seeking, rates).
    ///   - clock: the clock positions are computed with.
    ///   - busAddress: the bus to use; by default `DBUS_SESSION_BUS_ADDRESS`.
    ///   - timeout: the longest wait for the bus, in seconds (``busTimeout`` by default); the connection and the
    ///     name request each get at most this long.
    ///   - onCommand: called on the bus thread for each command, in addition to ``commands``.
    /// - Throws: ``MPRISError`` when there is no session bus, it cannot be reached, does not answer within
    ///   `timeout`, or the name is taken.
    public static func start(name: String, identity: String,
                             capabilities: PlaybackCapabilities = PlaybackCapabilities(),
                             clock: any MediaClock = MonotonicMediaClock(),
                             busAddress: String? = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
                             timeout: Double = MPRISPlayer.busTimeout,
                             onCommand: (@Sendable (ReceivedRemoteCommand) -> Void)? = nil) throws(MPRISError) -> MPRISPlayer {
        guard MPRISNames.isValidPlayerName(name) else { throw .invalidPlayerName(name) }
        guard let address = busAddress, !address.isEmpty else { throw .noSessionBus }
        let seconds = timeout.isFinite && timeout > 0 ? min(timeout, 3_600) : busTimeout
        let bus = try connect(to: address, timeout: seconds)
        let busName = MPRISNames.busName(for: name)
        // Bounded by the method call timeout set in connect(to:timeout:).
        let requested = sd_bus_request_name(bus, busName, 0)
        guard requested >= 0 else {
            release(bus, timeout: seconds)
            if requested == -EEXIST || requested == -EALREADY { throw .nameTaken(busName: busName) }
            if requested == -ETIMEDOUT { throw .busTimedOut(address: address, operation: "RequestName(\(busName))", seconds: seconds) }
            throw .busFailure(operation: "RequestName(\(busName))", reason: BusMessage.describe(requested))
        }
        let wakeDescriptor = edk_make_wake_fd()
        guard wakeDescriptor >= 0 else {
            release(bus, timeout: seconds)
            throw .busFailure(operation: "eventfd", reason: String(cString: strerror(errno)))
        }
        let model = MPRISPlayerModel(identity: identity, router: RemoteCommandRouter(capabilities: capabilities))
        let player = MPRISPlayer(bus: bus, busName: busName, model: model, clock: clock,
                                 wakeDescriptor: wakeDescriptor, timeout: seconds, onCommand: onCommand)
        let added = sd_bus_add_object(bus, nil, MPRISNames.objectPath, messageHandler,
                                      Unmanaged.passUnretained(player).toOpaque())
        guard added >= 0 else {
            player.closeResources()
            throw .busFailure(operation: "add object \(MPRISNames.objectPath)", reason: BusMessage.describe(added))
        }
        let thread = Thread { player.runLoop() }
        thread.name = "MPRIS \(busName)"
        thread.start()
        return player
    }

    private static func connect(to address: String, timeout: Double) throws(MPRISError) -> OpaquePointer {
        var created: OpaquePointer?
        let made = sd_bus_new(&created)
        guard made >= 0, let bus = created else {
            throw .busFailure(operation: "sd_bus_new", reason: BusMessage.describe(made))
        }
        let deadline = monotonicMicroseconds() + UInt64(timeout * 1e6)
        var result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        // Every synchronous call on this connection (RequestName) gives up after `timeout`, not sd-bus's 25 s.
        if result >= 0 { result = sd_bus_set_method_call_timeout(bus, UInt64(timeout * 1e6)) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            release(bus)
            throw .sessionBusUnreachable(address: address, reason: BusMessage.describe(result))
        }
        // sd_bus_start only begins the handshake (authentication, then Hello); its own wait for it is the 90 s
        // authentication timeout. The handshake is driven to the deadline (`edk_sd_bus_wait_ready`, shared with the
        // GNOME display configuration's connection).
        let remaining = deadline > monotonicMicroseconds() ? deadline - monotonicMicroseconds() : 0
        let waited = edk_sd_bus_wait_ready(bus, remaining)
        if waited == 0 { return bus }
        release(bus)
        if waited == -ETIMEDOUT {
            throw .busTimedOut(address: address, operation: "the connection (authentication and Hello)", seconds: timeout)
        }
        throw .sessionBusUnreachable(address: address, reason: BusMessage.describe(waited))
    }

    /// Closes a connection after at most `timeout` seconds spent writing what is queued (sd-bus's own flush waits
    /// for ever on a bus that stopped reading). A connection that never became ready (its handshake unanswered)
    /// is closed at once: nothing queued on it can be sent.
    private static func release(_ bus: OpaquePointer, timeout: Double = 0) {
        let deadline = monotonicMicroseconds() + UInt64(max(0, timeout) * 1e6)
        while sd_bus_is_ready(bus) > 0 {
            var queued: UInt64 = 0
            guard sd_bus_get_n_queued_write(bus, &queued) >= 0, queued > 0 else { break }
            let step = sd_bus_process(bus, nil)
            if step < 0 { break }
            if step > 0 { continue }
            let now = monotonicMicroseconds()
            guard now < deadline else { break }
            edk_sd_bus_wait_until(bus, deadline)
        }
        sd_bus_close_unref(bus)
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }

    private init(bus: OpaquePointer, busName: String, model: MPRISPlayerModel, clock: any MediaClock,
                 wakeDescriptor: Int32, timeout: Double, onCommand: (@Sendable (ReceivedRemoteCommand) -> Void)?) {
        self.bus = bus
        self.timeout = timeout
        self.busName = busName
        self.currentModel = model
        self.clock = clock
        self.wakeDescriptor = wakeDescriptor
        self.onCommand = onCommand
        (commands, continuation) = AsyncStream.makeStream(of: ReceivedRemoteCommand.self)
    }

    /// What the player currently shows (a snapshot).
    public var model: MPRISPlayerModel {
        lock.lock()
        defer { lock.unlock() }
        return currentModel
    }

    /// Why the bus loop ended early, if it did (for example the bus went away).
    public var failure: MPRISError? {
        lock.lock()
        defer { lock.unlock() }
        return loopError
    }

    /// Shows a publication from a `NowPlayingSession`: changed properties are announced with
    /// `PropertiesChanged`, jumps in position with `Seeked`. Position itself is never announced.
    public func publish(_ publication: NowPlayingPublication) {
        change(reason: publication.reason, at: publication.instant) { $0.nowPlaying = publication.state }
    }

    /// Changes what the app can do beyond the current item; the `Can*` properties follow.
    public func update(capabilities: PlaybackCapabilities) {
        change(reason: nil, at: nil) { $0.router.capabilities = capabilities }
    }

    /// Changes the name media widgets show.
    public func update(identity: String) {
        change(reason: nil, at: nil) { $0.identity = identity }
    }

    /// Shows a volume the app set itself (a key, its own clamping): `Volume` changes and is announced.
    /// Non-finite values are ignored; negative ones show as 0.
    public func update(volume: Double) {
        guard volume.isFinite else { return }
        change(reason: nil, at: nil) { $0.volume = max(0, volume) }
    }

    /// Calls `handler` on the bus thread with every `Volume` a client sets, after ``model`` shows it, so the
    /// app can apply it (and answer with ``update(volume:)`` if it clamps it).
    public func onVolumeSet(_ handler: @escaping @Sendable (Double) -> Void) {
        lock.lock()
        volumeHandler = handler
        lock.unlock()
    }

    /// Makes `Quit` act: `CanQuit` becomes true and `handler` is called on the bus thread for every `Quit`.
    public func onQuit(_ handler: @escaping @Sendable () -> Void) {
        lock.lock()
        quitHandler = handler
        lock.unlock()
        change(reason: nil, at: nil) { $0.canQuit = true }
    }

    private func change(reason: NowPlayingPublicationReason?, at instant: TimeInterval?,
                        _ edit: (inout MPRISPlayerModel) -> Void) {
        lock.lock()
        let before = currentModel
        edit(&currentModel)
        queueSignals(from: before, reason: reason, at: instant ?? clock.now())
        lock.unlock()
        wake()
    }

    /// Must be called with `lock` held.
    private func queueSignals(from before: MPRISPlayerModel, reason: NowPlayingPublicationReason?,
                              at instant: TimeInterval) {
        let root = currentModel.changedRootProperties(since: before)
        if !root.isEmpty { outbox.append(.propertiesChanged(interface: MPRISNames.rootInterface, changed: root)) }
        let player = currentModel.changedPlayerProperties(since: before)
        if !player.isEmpty { outbox.append(.propertiesChanged(interface: MPRISNames.playerInterface, changed: player)) }
        if let reason, let position = currentModel.seekedPosition(after: reason, at: instant) {
            outbox.append(.seeked(position))
        }
    }

    /// Stops serving: releases the bus name, closes the connection and finishes ``commands``. Waits for the
    /// bus thread to end; calling it again does nothing.
    public func stop() {
        lock.lock()
        let wasRunning = isRunning
        isRunning = false
        lock.unlock()
        guard wasRunning else { return }
        wake()
        finished.wait()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, MemoryLayout<UInt64>.size)
    }

    // MARK: The bus thread

    private func runLoop() {
        while true {
            lock.lock()
            let running = isRunning
            let signals = outbox
            outbox.removeAll()
            lock.unlock()
            for signal in signals { send(signal) }
            guard running else { break }
            let processed = sd_bus_process(bus, nil)
            if processed < 0 {
                lock.lock()
                loopError = .busFailure(operation: "process", reason: BusMessage.describe(processed))
                isRunning = false
                lock.unlock()
                break
            }
            if processed > 0 { continue }
            waitForWork()
        }
        continuation.finish()
        closeResources()
        finished.signal()
    }

    private func waitForWork() {
        var descriptors = [pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                           pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        var deadline: UInt64 = 0
        var timeout: Int32 = -1
        if sd_bus_get_timeout(bus, &deadline) > 0, deadline != UInt64.max {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
            timeout = deadline > nowMicroseconds ? Int32(min((deadline - nowMicroseconds + 999) / 1_000, 60_000)) : 0
        }
        _ = poll(&descriptors, 2, timeout)
        var count: UInt64 = 0
        _ = read(wakeDescriptor, &count, MemoryLayout<UInt64>.size)
    }

    private func send(_ signal: OutgoingSignal) {
        switch signal {
        case .propertiesChanged(let interface, let changed):
            BusMessage.emit(on: bus, path: MPRISNames.objectPath, interface: MPRISNames.propertiesInterface,
                            member: "PropertiesChanged",
                            values: [.string(interface), .dictionary(changed), .strings([])])
        case .seeked(let position):
            BusMessage.emit(on: bus, path: MPRISNames.objectPath, interface: MPRISNames.playerInterface,
                            member: "Seeked", values: [.int64(position)])
        }
    }

    /// Answers one message addressed to the player's object. Runs on the bus thread.
    fileprivate func handle(_ message: OpaquePointer) -> Int32 {
        guard sd_bus_message_is_method_call(message, nil, nil) > 0 else { return 0 }
        let interface = sd_bus_message_get_interface(message).map { String(cString: $0) }
        let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
        let (arguments, unreadable) = BusMessage.readArguments(message)
        let request: MPRISRequest
        do throws(MPRISCallError) {
            request = try MPRISRequest.parse(interface: interface, member: member, arguments: arguments)
            // Arguments of a type no MPRIS method takes were not read; the call cannot be what it claims.
            if let unreadable {
                throw .invalidArguments("\(member) does not take an argument of type \(unreadable); see Introspect")
            }
        } catch {
            let isTypeError = error.name == MPRISCallError.invalidArguments("").name
            let reported = isTypeError && unreadable != nil
                ? MPRISCallError.invalidArguments("\(member) does not take an argument of type \(unreadable ?? "?"); see Introspect")
                : error
            BusMessage.reply(to: message, with: reported)
            return 1
        }
        lock.lock()
        let before = currentModel
        let response = currentModel.respond(to: request, at: clock.now())
        queueSignals(from: before, reason: nil, at: clock.now())
        let volumeSet = currentModel.volume != before.volume ? volumeHandler.map { ($0, currentModel.volume) } : nil
        let quit = request == .quit ? quitHandler : nil
        lock.unlock()
        switch response.reply {
        case .success(let values): BusMessage.reply(to: message, with: values)
        case .failure(let error): BusMessage.reply(to: message, with: error)
        }
        if let (handler, volume) = volumeSet { handler(volume) }
        quit?()
        if let command = response.command {
            continuation.yield(command)
            onCommand?(command)
        }
        return 1
    }

    private func closeResources() {
        Self.release(bus, timeout: timeout)
        close(wakeDescriptor)
    }
}

/// The C entry point sd-bus calls for messages to the player's object; `userdata` is the player.
private let messageHandler: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message, let userdata else { return 0 }
    return Unmanaged<MPRISPlayer>.fromOpaque(userdata).takeUnretainedValue().handle(message)
}
#endif
