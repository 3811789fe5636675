import ExternalDisplayTesting
import Testing

/// Hand-written timing and presentation stories (issues 3 and 6) that must pass, and alterations that must not.
enum Stories {
    static let teardown = ["stopFrameClock", "hideWindow", "destroyWindow"]

    /// Hackworth's corner cases: covered device view without a display (stopped), a display attached while covered
    /// (started), unplugged again while covered (stopped), uncovered (started).
    static let refresh: [String] = [
        Line.config(),                                                                                   // 1
        Line.event(0, 0, "launch"),                                                                      // 2
        Line.event(1, 1, "modelRunning", #""running":true"#),                                            // 3
        Line.refresh(1, "startRefresh", #""fps":60"#),                                                   // 4
        Line.interval(from: 1, to: 2, fps: 60, ticks: 60, delivered: #"{"device":60}"#,                 // 5
                      consumerFps: #"{"device":60}"#, wakeups: 60),
        Line.event(2, 2, "deviceViewVisible", #""visible":false"#),                                      // 6
        Line.refresh(2, "stopRefresh"),                                                                  // 7
        Line.interval(from: 2, to: 3, fps: 0, ticks: 0, wakeups: 0),                                     // 8
        Line.connect(3, 3),                                                                              // 9
        Line.command(3, "setOverscanCompensation", "tv", #""compensation":"scale""#),                    // 10
        Line.command(3, "createWindow", "tv", Line.frames("[0,0,1280,720]")),                            // 11
        Line.command(3, "showWindow", "tv", #""content":"app""#),                                        // 12
        Line.command(3, "startFrameClock", "tv", #""fps":60,"paused":true"#),                            // 13
        Line.refresh(3, "startRefresh", #""fps":60"#),                                                   // 14
        Line.interval(from: 3, to: 4, fps: 60, ticks: 60, delivered: #"{"device":0,"tv":60}"#,          // 15
                      consumerFps: #"{"device":60,"tv":60}"#, clockTicks: #"{"tv":0}"#, wakeups: 60),
        Line.event(4, 4, "renderContinuously", #""display":"tv","on":true"#),                            // 16
        Line.command(4, "resumeFrameClock"),                                                             // 17
        Line.interval(from: 4, to: 5, fps: 60, ticks: 60, delivered: #"{"tv":60}"#,                     // 18
                      consumerFps: #"{"tv":60}"#, clockTicks: #"{"tv":60}"#, wakeups: 120),
        Line.event(5, 5, "disconnect", #""display":"tv""#),                                              // 19
        Line.command(5, "pauseFrameClock"),                                                              // 20
        Line.command(5, "stopFrameClock"),                                                               // 21
        Line.command(5, "hideWindow"),                                                                   // 22
        Line.command(5, "destroyWindow"),                                                                // 23
        Line.refresh(5, "stopRefresh"),                                                                  // 24
        Line.interval(from: 5, to: 6, fps: 0, ticks: 0, wakeups: 0),                                     // 25
        Line.event(6, 6, "deviceViewVisible", #""visible":true"#),                                       // 26
        Line.refresh(6, "startRefresh", #""fps":60"#),                                                   // 27
        #"{"t":6,"type":"summary","phase":"active","connected":[],"mirrored":[],"windows":{},"#          // 28
            + #""modeSwitches":0,"windowsCreated":1,"refreshTicks":180,"wakeups":240,"#
            + #""ticksDelivered":{"device":60,"tv":120},"violations":[]}"#,
    ]

    /// The photo browser: an item follows the TV out and back; a private note stays on the device; capture and
    /// mirroring redact; rotation touches nothing.
    static let photos: [String] = [
        Line.config(),                                                                                   // 1
        Line.event(0, 0, "launch"),                                                                      // 2
        Line.event(1, 1, "show", #""item":"photo","private":false"#),                                    // 3
        Line.notify(1, "route", #""item":"photo","to":"device""#),                                       // 4
        Line.connect(2, 2),                                                                              // 5
        Line.command(2, "setOverscanCompensation", "tv", #""compensation":"scale""#),                    // 6
        Line.command(2, "createWindow", "tv", Line.frames("[0,0,1280,720]")),                            // 7
        Line.command(2, "showWindow", "tv", #""content":"app""#),                                        // 8
        Line.command(2, "startFrameClock", "tv", #""fps":60"#),                                          // 9
        Line.notify(2, "route", #""item":"photo","to":"tv""#),                                           // 10
        Line.event(3, 3, "show", #""item":"note","private":true"#),                                      // 11
        Line.notify(3, "route", #""item":"note","to":"device""#),                                        // 12
        Line.event(4, 4, "capture", #""on":true"#),                                                      // 13
        Line.notify(4, "redact", #""on":true"#),                                                         // 14
        Line.event(5, 5, "rotate", #""orientation":"landscape""#),                                       // 15
        Line.event(6, 6, "capture", #""on":false"#),                                                     // 16
        Line.notify(6, "redact", #""on":false"#),                                                        // 17
        Line.event(7, 7, "mirror", #""display":"tv""#),                                                  // 18
    ] + teardown.map { Line.command(7, $0) } + [                                                         // 19–21
        Line.notify(7, "route", #""item":"photo","to":"device""#),                                       // 22
        Line.notify(7, "redact", #""on":true"#),                                                         // 23
        Line.event(8, 8, "rotate", #""orientation":"portrait""#),                                        // 24
        Line.event(9, 9, "disconnect", #""display":"tv""#),                                              // 25
        Line.notify(9, "redact", #""on":false"#),                                                        // 26
        #"{"t":9,"type":"summary","phase":"active","connected":[],"mirrored":[],"windows":{},"#          // 27
            + #""modeSwitches":0,"windowsCreated":1,"routes":{"photo":"device","note":"device"},"#
            + #""redacted":false,"violations":[]}"#,
    ]

    static let mutations: [(story: String, mutation: Mutation)] = [
        ("refresh", .delete(7, "refresh left running under the sheet", .refreshRunning)),
        ("refresh", .delete(14, "refresh not started for the TV", .refreshRunning)),
        ("refresh", .delete(24, "refresh left running after unplug", .refreshRunning)),
        ("refresh", .delete(17, "clock left paused for continuous rendering", .frameClockPause)),
        ("refresh", .alter(8, "wakeups with nothing to draw", .wakeups, #""wakeups":0"#, #""wakeups":2"#)),
        ("refresh", .alter(15, "ticks to the hidden device view", .ticksDelivered, #""device":0,"#, #""device":60,"#)),
        ("refresh", .alter(18, "consumer rate nobody asked for", .intervalCounts, #""consumerFps":{"tv":60}"#,
                           #""consumerFps":{"tv":30}"#)),
        ("refresh", .alter(18, "TV short of ticks", .ticksDelivered, #""delivered":{"tv":60}"#,
                           #""delivered":{"tv":50}"#)),
        ("refresh", .alter(15, "too few ticks for a second", .intervalCounts, #""refreshTicks":60"#, #""refreshTicks":50"#)),
        ("refresh", .alter(13, "clock started unpaused", .frameClockPause, #""paused":true"#, #""paused":false"#)),
        ("refresh", .alter(28, "summary wakeups", .summaryMismatch, #""wakeups":240"#, #""wakeups":200"#)),
        ("photos", .alter(12, "private note on the TV", .privateRoutedExternally, #""to":"device""#, #""to":"tv""#)),
        ("photos", .delete(22, "photo left on the mirrored TV", .routeOnDisconnect)),
        ("photos", .delete(14, "no redaction while captured", .redaction)),
        ("photos", .delete(17, "redaction kept after capture", .redaction)),
        ("photos", .delete(23, "no redaction while mirrored", .redaction)),
        ("photos", .insert(Line.command(5, "layoutWindow", "tv", Line.frames("[0,0,1280,720]")), after: 15,
                           "layout on rotation", .commandOnRotate)),
        ("photos", .alter(27, "summary routes", .summaryMismatch, #""note":"device""#, #""note":"tv""#)),
    ]
}

@Suite struct CheckerStoriesTests {
    @Test func refreshStoryIsClean() { expectClean(Stories.refresh) }

    @Test func photoStoryIsClean() { expectClean(Stories.photos) }

    @Test(arguments: Stories.mutations.indices) func storyMutationIsCaught(_ index: Int) {
        let (story, mutation) = Stories.mutations[index]
        let original = story == "refresh" ? Stories.refresh : Stories.photos
        let mutated = mutation.apply(original)
        #expect(mutated != original)
        let found = check(mutated)
        #expect(found.contains { $0.rule == mutation.rule }, "\(mutation.name): got \(found.map(\.description))")
    }
}
