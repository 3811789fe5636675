import ExtDisplayTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `parec` recording a PulseAudio server's null sink (its monitor), signed 16-bit mono at 48 kHz, every chunk
/// stamped with the monotonic time it arrived, so that what was heard can be put on the same clock as screen
/// reads. A sample's time is the tightest bound the later arrivals give (arrival time less the samples recorded
/// after it), so it is the capture time plus at most the transport's latency (`--latency-msec=10`).
final class SoundRecording: @unchecked Sendable {
    static let rate = 48_000
    private let process = Process()
    // Guarded by `lock`.
    private let lock = NSLock()
    private var samples: [Int16] = []
    private var arrivals: [(time: Double, count: Int)] = []
    private var pending: [UInt8] = []

    /// Starts recording the monitor of the sink named `null` of the server `environment` points at.
    init(environment: [String: String]) throws {
        guard let parec = ["/usr/bin/parec", "/bin/parec"].first(where: FileManager.default.isExecutableFile) else {
            throw SupportError("parec is missing: run scripts/install-deps.sh (installs pulseaudio-utils)")
        }
        process.executableURL = URL(fileURLWithPath: parec)
        process.arguments = ["-d", "null.monitor", "--raw", "--format=s16le", "--rate=\(Self.rate)", "--channels=1",
                             "--latency-msec=10"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                let now = ProcessInfo.processInfo.systemUptime
                lock.lock()
                pending += chunk
                let whole = pending.count / 2 * 2
                for index in stride(from: 0, to: whole, by: 2) {
                    samples.append(Int16(bitPattern: UInt16(pending[index]) | UInt16(pending[index + 1]) << 8))
                }
                pending.removeFirst(whole)
                arrivals.append((now, samples.count))
                lock.unlock()
            }
        }
    }

    /// Stops parec (SIGKILL: children of the test runner may block SIGTERM).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    deinit { stop() }

    /// How many samples have arrived.
    var count: Int { lock.withLock { samples.count } }

    /// The monotonic time sample `index` was heard at, or `nil` before it arrived.
    func time(ofSample index: Int) -> Double? {
        lock.withLock {
            arrivals.filter { $0.count > index }
                .map { $0.time - Double($0.count - index) / Double(Self.rate) }.min()
        }
    }

    /// The index of the first sample heard at or after monotonic time `instant`, if it has arrived.
    func sample(at instant: Double) -> Int? {
        let total = count
        var low = 0, high = total
        while low < high {
            let middle = (low + high) / 2
            guard let time = time(ofSample: middle) else { return nil }
            if time < instant { low = middle + 1 } else { high = middle }
        }
        return low < total ? low : nil
    }

    /// The root mean square of the samples heard between two monotonic instants, 0…1 of full scale.
    func loudness(from start: Double, to end: Double) -> Double? {
        guard let first = sample(at: start), let last = sample(at: end), last > first else { return nil }
        let window = lock.withLock { Array(samples[first..<last]) }
        let sum = window.reduce(0.0) { $0 + Double($1) * Double($1) }
        return (sum / Double(window.count)).squareRoot() / 32768
    }

    /// The frequency of the sound heard between two monotonic instants, in hertz: the sample rate over the median
    /// distance between upward zero crossings. The median, not the count of crossings: a dropout of one quantum
    /// (10 ms) in the window made a count-based 440 Hz read 416–424 Hz on PipeWire, and a pitch is not a dropout.
    func frequency(from start: Double, to end: Double) -> Double? {
        guard let first = sample(at: start), let last = sample(at: end), last > first + 1 else { return nil }
        let window = lock.withLock { Array(samples[first..<last]) }
        let upward = zip(window.indices, zip(window, window.dropFirst())).filter { $1.0 < 0 && $1.1 >= 0 }.map(\.0)
        let periods = zip(upward, upward.dropFirst()).map { $1 - $0 }.sorted()
        guard !periods.isEmpty else { return nil }
        return Double(Self.rate) / Double(periods[periods.count / 2])
    }

    /// The first stretch of at least `minimum` seconds after `instant` in which every 5 ms stays at or below
    /// `threshold` (RMS, 0…1): when it began and when the sound came back (`nil` end: not yet).
    func quietStretch(after instant: Double, threshold: Double, minimum: Double) -> (start: Double, end: Double?)? {
        guard let start = sample(at: instant) else { return nil }
        let window = Self.rate / 200
        let all = lock.withLock { samples }
        var quietSince: Int?
        var index = start
        while index + window <= all.count {
            let sum = all[index..<index + window].reduce(0.0) { $0 + Double($1) * Double($1) }
            let loud = (sum / Double(window)).squareRoot() / 32768 > threshold
            if !loud, quietSince == nil { quietSince = index }
            if loud, let since = quietSince {
                if Double(index - since) / Double(Self.rate) >= minimum {
                    return time(ofSample: since).map { ($0, time(ofSample: index)) }
                }
                quietSince = nil
            }
            index += window
        }
        guard let since = quietSince, Double(index - since) / Double(Self.rate) >= minimum else { return nil }
        return time(ofSample: since).map { ($0, nil) }
    }

    /// The monotonic time the sound first got louder than `threshold` (RMS over 5 ms, 0…1) after `instant`.
    func onset(after instant: Double, threshold: Double) -> Double? {
        guard let start = sample(at: instant) else { return nil }
        let window = Self.rate / 200
        let all = lock.withLock { samples }
        var index = start
        while index + window <= all.count {
            let sum = all[index..<index + window].reduce(0.0) { $0 + Double($1) * Double($1) }
            if (sum / Double(window)).squareRoot() / 32768 > threshold { return time(ofSample: index) }
            index += window / 2
        }
        return nil
    }
}
