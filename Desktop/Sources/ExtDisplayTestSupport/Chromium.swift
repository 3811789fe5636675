import Foundation

/// A headless Chromium (Debian's `chromium`) driven over the DevTools protocol: open pages at an exact viewport,
/// read their state, take screenshots, close them. Throws (never skips) when Chromium is not installed.
public final class Chromium: @unchecked Sendable {
    /// The DevTools connection.
    public let devtools: CDPClient
    private let process: Process
    private let profile: URL
    private let stderrLines: LineReader

    /// What the browser printed on its standard error so far (with `--enable-logging=stderr`, its log).
    public var log: [String] { stderrLines.all }

    /// A page (a tab) open in this browser.
    public struct Page: Sendable {
        /// The target id.
        public var target: String
        /// The DevTools session attached to it.
        public var session: String
    }

    private init(devtools: CDPClient, process: Process, profile: URL, stderrLines: LineReader) {
        self.devtools = devtools
        self.process = process
        self.profile = profile
        self.stderrLines = stderrLines
    }

    /// The Chromium executable: `$CHROMIUM`, else `chromium` on the PATH.
    public static func executable() throws -> String {
        if let path = ProcessInfo.processInfo.environment["CHROMIUM"], !path.isEmpty { return path }
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(directory)/chromium"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw SupportError("chromium is not installed: run scripts/install-deps.sh (Debian package chromium)")
    }

    /// Starts headless Chromium with remote debugging on a free port, and `extraArguments` (e.g.
    /// `--ignore-certificate-errors` for a test's self-signed certificate). `environment` changes the test
    /// process's own for the browser (a value of nil removes the variable), e.g. a private session bus.
    public static func launch(extraArguments: [String] = [],
                              environment: [String: String?] = [:]) async throws -> Chromium {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("edk-chromium-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--mute-audio",
                             "--no-first-run", "--disable-background-networking", "--disable-extensions",
                             "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
                             "--disable-backgrounding-occluded-windows", "--remote-debugging-port=0", "--remote-allow-origins=*",
                             "--user-data-dir=\(profile.path)"] + extraArguments + ["about:blank"]
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (key, value) in environment { merged[key] = value }
            process.environment = merged
        }
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let lines = LineReader(stderr.fileHandleForReading)
        guard let line = await lines.first(where: { $0.contains("DevTools listening on ") }, timeout: 30),
              let range = line.range(of: "ws://") else {
            if process.isRunning { process.terminate() }
            throw SupportError("chromium did not start its DevTools server within 30 s")
        }
        let devtools = try await CDPClient.connect(String(line[range.lowerBound...]).trimmingCharacters(in: .whitespaces))
        return Chromium(devtools: devtools, process: process, profile: profile, stderrLines: lines)
    }

    /// Opens `url` in a new tab whose viewport is `width`×`height` CSS pixels at `deviceScaleFactor`.
    public func open(_ url: String, width: Int = 1280, height: Int = 720, deviceScaleFactor: Double = 1) async throws -> Page {
        // A window of its own: a background tab would have its animation frames throttled.
        let target = try await devtools.call("Target.createTarget", ["url": "about:blank", "newWindow": true])["targetId"]
            as? String ?? ""
        let session = try await devtools.call("Target.attachToTarget", ["targetId": target, "flatten": true])["sessionId"]
            as? String ?? ""
        let page = Page(target: target, session: session)
        try await resize(page, width: width, height: height, deviceScaleFactor: deviceScaleFactor)
        try await devtools.call("Page.enable", session: session)
        try await devtools.call("Page.navigate", ["url": url], session: session)
        return page
    }

    /// Changes a page's viewport (the page sees a resize).
    public func resize(_ page: Page, width: Int, height: Int, deviceScaleFactor: Double = 1) async throws {
        try await devtools.call("Emulation.setDeviceMetricsOverride",
                                ["width": width, "height": height, "deviceScaleFactor": deviceScaleFactor, "mobile": false],
                                session: page.session)
    }

    /// Turns touch emulation on for a page, as on a phone: touch events reach it and it may be tapped and swiped.
    public func emulateTouch(_ page: Page) async throws {
        try await devtools.call("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5],
                                session: page.session)
    }

    /// One finger put down at `from`, moved to `to` in `steps` moves and lifted (CSS pixels): a tap when the two
    /// are the same point, a swipe otherwise. The page receives touchstart, touchmove and touchend (and the pointer
    /// events of a touch). With `force` (0…1) the screen reports that pressure.
    public func touch(_ page: Page, from: (x: Double, y: Double), to: (x: Double, y: Double), steps: Int = 6,
                      force: Double? = nil) async throws {
        var first = ["x": from.x, "y": from.y]
        if let force { first["force"] = force }
        try await devtools.call("Input.dispatchTouchEvent",
                                ["type": "touchStart", "touchPoints": [first]], session: page.session)
        if from != to {
            for step in 1...max(1, steps) {
                let share = Double(step) / Double(max(1, steps))
                var point = ["x": from.x + (to.x - from.x) * share, "y": from.y + (to.y - from.y) * share]
                if let force { point["force"] = force }
                try await devtools.call("Input.dispatchTouchEvent", ["type": "touchMove", "touchPoints": [point]],
                                        session: page.session)
            }
        }
        try await devtools.call("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": [[String: Double]]()],
                                session: page.session)
    }

    /// Two fingers put down at `from`, moved together to `to` in `steps` moves and lifted (CSS pixels): a pinch
    /// when they spread or close, a two-finger drag when they move alike. The page receives touchstart (both
    /// fingers), touchmove and touchend, as `Input.dispatchTouchEvent` with two touch points gives them.
    public func twoFingers(_ page: Page, from: [(x: Double, y: Double)], to: [(x: Double, y: Double)],
                           steps: Int = 8) async throws {
        guard from.count == 2, to.count == 2 else { throw SupportError("twoFingers needs two points at each end") }
        func points(_ share: Double) -> [[String: Double]] {
            (0..<2).map { ["x": from[$0].x + (to[$0].x - from[$0].x) * share,
                           "y": from[$0].y + (to[$0].y - from[$0].y) * share, "id": Double($0)] }
        }
        try await devtools.call("Input.dispatchTouchEvent", ["type": "touchStart", "touchPoints": points(0)],
                                session: page.session)
        for step in 1...max(1, steps) {
            try await devtools.call("Input.dispatchTouchEvent",
                                    ["type": "touchMove", "touchPoints": points(Double(step) / Double(max(1, steps)))],
                                    session: page.session)
        }
        try await devtools.call("Input.dispatchTouchEvent", ["type": "touchEnd", "touchPoints": [[String: Double]]()],
                                session: page.session)
    }

    /// Evaluates a JavaScript expression in the page and returns its value (JSON-compatible).
    /// With `awaitPromise`, a promise's result is waited for.
    public func evaluate(_ page: Page, _ expression: String, awaitPromise: Bool = false) async throws -> Any? {
        let result = try await devtools.call("Runtime.evaluate", ["expression": expression, "returnByValue": true,
                                                                  "awaitPromise": awaitPromise],
                                             session: page.session)
        return (result["result"] as? [String: Any])?["value"]
    }

    /// One paint the page reported: the frame, when (epoch ms, after the animation frame that shows it), and its
    /// place in the page's paints (1, 2, …).
    public struct Paint: Sendable {
        /// The frame number.
        public var frame: UInt32
        /// When it was on screen (epoch ms, the page's clock).
        public var at: Double
        /// The page's paint count at this paint.
        public var count: Int
    }

    /// The frames the page reports it painted (its last 1,000).
    public func paints(_ page: Page) async throws -> [Paint] {
        let value = try await evaluate(page, "JSON.stringify(window.edkPaints || [])") as? String ?? "[]"
        let rows = try JSONSerialization.jsonObject(with: Data(value.utf8)) as? [[Double]] ?? []
        return rows.compactMap { row in
            guard row.count == 3, let frame = UInt32(exactly: row[0]), let count = Int(exactly: row[2]) else { return nil }
            return Paint(frame: frame, at: row[1], count: count)
        }
    }

    /// The page's counts: pictures received and decoded, shows, shows that waited for their picture to decode,
    /// shows of a picture the page did not hold (-1: not reported).
    public func pictureStats(_ page: Page) async throws -> (pictures: Int, decoded: Int, shows: Int, waited: Int, missing: Int) {
        let value = try await evaluate(page, "JSON.stringify(window.edkStats || {})") as? String ?? "{}"
        let object = try JSONSerialization.jsonObject(with: Data(value.utf8)) as? [String: Any] ?? [:]
        func count(_ key: String) -> Int { (object[key] as? NSNumber)?.intValue ?? -1 }
        return (count("pictures"), count("decoded"), count("shows"), count("waited"), count("missing"))
    }

    /// A PNG screenshot of the page's viewport.
    public func screenshot(_ page: Page) async throws -> Data {
        let result = try await devtools.call("Page.captureScreenshot", ["format": "png"], session: page.session)
        guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw SupportError("Page.captureScreenshot returned no image")
        }
        return data
    }

    /// Closes a page (the tab goes away like a closed browser tab).
    public func close(_ page: Page) async throws {
        try await devtools.call("Target.closeTarget", ["targetId": page.target])
    }

    /// Reloads a page.
    public func reload(_ page: Page) async throws {
        try await devtools.call("Page.reload", ["ignoreCache": true], session: page.session)
    }

    /// Quits the browser and removes its profile.
    public func quit() async {
        await devtools.close()
        if process.isRunning { process.terminate() }
        // Waited for on a thread of its own: never on the cooperative threads other suites' clients need.
        let process = self.process, profile = self.profile
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                process.waitUntilExit()
                try? FileManager.default.removeItem(at: profile)
                done.resume()
            }
        }
    }
}
