public import ExternalDisplayPresenter
import Foundation

/// Keeps the status lines that only say the network pages changed to one a second: 300 pages connecting are a
/// few lines, not 300, while a line that says anything else (a key was handled: slide, timer, blackout…; a
/// cable display came or went) is printed at once. The line held back is printed when its second is over, so the last word is always
/// printed.
@MainActor
public final class StatusLineThrottle {
    /// Seconds between two lines that differ only in their external displays.
    public static let interval = 1.0

    private let controller: PresenterController
    private let say: (String) -> Void
    private let clock: () -> Double
    private var lastKey: String?
    private var lastTime = -Double.infinity
    private var pending: String?
    private var timer: Task<Void, Never>?

    /// A throttle printing to `say`; `clock` gives seconds (monotonic; the system's uptime when nil).
    public init(controller: PresenterController, say: @escaping (String) -> Void, clock: (() -> Double)? = nil) {
        self.controller = controller
        self.say = say
        self.clock = clock ?? { ProcessInfo.processInfo.systemUptime }
    }

    /// Takes a status line (just made from the controller's current state).
    public func line(_ line: String) {
        // Cable displays coming and going are told at once; only network pages' churn is held back.
        let cables = controller.state.audienceDisplays.filter { $0.kind == .cable }.map(\.id.rawValue)
        let key = line.replacingOccurrences(of: ", external: " + controller.externalSummary, with: "")
            + " | cables: " + cables.joined(separator: ", ")
        let now = clock()
        if key == lastKey, now - lastTime < Self.interval {
            pending = line
            guard timer == nil else { return }
            let delay = Self.interval - (now - lastTime)
            timer = Task { @MainActor [weak self] in
                try? await Task.sleep(nanoseconds: UInt64(max(0, delay) * 1e9) + 1_000_000)
                guard let self else { return }
                timer = nil
                if let pending { self.pending = nil; print(pending, key: lastKey, at: clock()) }
            }
            return
        }
        pending = nil
        print(line, key: key, at: now)
    }

    private func print(_ line: String, key: String?, at now: Double) {
        lastKey = key
        lastTime = now
        say(line)
    }
}
