import ExternalDisplayTesting
import Testing

/// Where the rules were silent, the checker decided; these tests pin those decisions down.
@Suite struct CheckerDecisionTests {
    static let mirrorTeardown = ["stopFrameClock", "hideWindow", "destroyWindow"]

    @Test func mirrorBeforeTheFirstConnectIsRemembered() {
        let lines = [Line.config(), Line.event(0, 0, "launch"), Line.event(0, 1, "mirror", #""display":"tv""#),
                     Line.connect(1, 2)]
        expectClean(lines)
        let windowed = Line.base().dropFirst().map { $0.replacingOccurrences(of: #""batch":0"#, with: #""batch":2"#) }
        #expect(check([Line.config(), Line.event(0, 1, "mirror", #""display":"tv""#)] + windowed).map(\.rule)
                == [.mirroredDisplayHasWindow])
    }

    @Test func mirrorWhileDisconnectedIsRememberedForTheReconnect() {
        let lines = Line.base() + RuleCase.disconnect + [
            Line.event(2, 2, "mirror", #""display":"tv""#),
            Line.connect(3, 3),
        ]
        expectClean(lines)
        let windowed = lines + [Line.command(3, "setOverscanCompensation", "tv", #""compensation":"scale""#),
                                Line.command(3, "createWindow", "tv", Line.frames("[0,0,1280,720]"))]
        #expect(check(windowed).map(\.rule) == [.mirroredDisplayHasWindow])
    }

    @Test func unknownPolicyIsReportedAndPolicyChecksSkipped() {
        let lines = replacing(RuleCase.highest(setMode: false), 1, with: Line.config(policy: #""pixelBudget""#))
        let found = check(lines)
        #expect(found.map(\.rule) == [.malformedLine])
        #expect(found.first?.line == 1)
    }

    @Test func displayConsumerRateIsCappedAtItsRefresh() {
        var lines = RuleCase.ntsc(safe: "[32,24,576,432]")
        lines += [Line.event(1, 1, "deviceViewVisible", #""visible":false"#),
                  Line.event(1, 1, "consumerRate", #""consumer":"tv","fps":60"#),
                  Line.event(1, 1, "modelRunning", #""running":true"#),
                  Line.refresh(1, "startRefresh", #""fps":59.94"#)]
        expectClean(lines)
        let tooFast = replacing(lines, lines.count, with: Line.refresh(1, "startRefresh", #""fps":60"#))
        #expect(check(tooFast).map(\.rule) == [.refreshRate])
    }

    @Test func aNewWindowStartsAtFullQuality() {
        let mirror = [Line.event(1, 1, "mirror", #""display":"tv""#)] + Self.mirrorTeardown.map { Line.command(1, $0) }
        let lines = Line.base() + [Line.command(0, "setRenderScale", "tv", #""scale":0.7"#)] + mirror
            + [Line.event(2, 2, "extend", #""display":"tv""#)] + Array(Line.base()[3...]).map {
                $0.replacingOccurrences(of: #""t":0.0"#, with: #""t":2.0"#)
            }
        func summary(scale: String) -> String {
            #"{"t":2,"type":"summary","phase":"active","connected":["tv"],"mirrored":[],"windows":{"tv":"#
                + #"{"visible":true,"content":"app","renderScale":\#(scale),"fps":60}},"windowsCreated":2}"#
        }
        expectClean(lines + [summary(scale: "1")])
        #expect(check(lines + [summary(scale: "0.7")]).map(\.rule) == [.summaryMismatch])
    }

    @Test func frameRateMustDivideTheRefreshNotTheConsumerRate() {
        let lines = Line.base() + [Line.event(1, 1, "consumerRate", #""consumer":"tv","fps":24"#),
                                   Line.command(1, "setFrameRate", "tv", #""fps":8"#)]
        #expect(check(lines).map(\.rule) == [.frameRate])
    }

    @Test func illegalLifecycleTransitionsChangeNothing() {
        let lines = Line.base() + [Line.event(1, 1, "suspend"), Line.event(2, 2, "resume"),
                                   Line.event(3, 3, "foreground")]
        expectClean(lines)
    }
}

extension CheckerDecisionTests {
    @Test func itemMayStayOnADisplayThatCameBackInTheSameBatch() {
        let back = [Line.event(2, 2, "disconnect", #""display":"tv""#), Line.connect(2, 2),
                    Line.command(2, "stopFrameClock"), Line.command(2, "hideWindow"), Line.command(2, "destroyWindow"),
                    Line.command(2, "setOverscanCompensation", "tv", #""compensation":"scale""#),
                    Line.command(2, "createWindow", "tv", Line.frames("[0,0,1280,720]")),
                    Line.command(2, "showWindow", "tv", #""content":"app""#),
                    Line.command(2, "startFrameClock", "tv", #""fps":60"#)]
        expectClean(RuleCase.photoOnTV + back)
        let gone = Array(back[0...0]) + back[2...4]
        #expect(check(RuleCase.photoOnTV + gone).map(\.rule) == [.routeOnDisconnect])
    }
}

extension CheckerDecisionTests {
    @Test func itemMadePrivateMustLeaveTheDisplay() {
        let privateNow = RuleCase.photoOnTV + [Line.event(2, 2, "show", #""item":"photo","private":true"#)]
        #expect(check(privateNow).map(\.rule) == [.privateRoutedExternally])
        #expect(check(privateNow).first?.line == 10)
        expectClean(privateNow + [Line.notify(2, "route", #""item":"photo","to":"device""#)])
    }
}

/// A mode that changes and is changed back within one batch needs no layout: the window's layout still holds.
/// Since the app's request releases the window first (Apple's order), the request re-creates it.
@Test func modeChangedAndRequestedBackInOneBatchNeedsNoLayout() {
    let base = Line.base() // the TV's window is laid out for 1280×720
    expectClean(base + [
        Line.event(1, 1, "modeChanged", #""display":"tv","mode":[640,480]"#),
        Line.event(1, 1, "requestMode", #""display":"tv","mode":[1280,720]"#),
        Line.command(1, "stopFrameClock", "tv"),
        Line.command(1, "hideWindow", "tv"),
        Line.command(1, "destroyWindow", "tv"),
        Line.command(1, "setMode", "tv", #""mode":[1280,720],"refresh":60"#),
        Line.command(1, "setOverscanCompensation", "tv", #""compensation":"scale""#),
        Line.command(1, "createWindow", "tv", #""frame":[0,0,1280,720],"safeFrame":[0,0,1280,720]"#),
        Line.command(1, "showWindow", "tv", #""content":"app""#),
        Line.command(1, "startFrameClock", "tv", #""fps":60,"paused":true"#),
    ])
    // Setting the mode while the window exists breaks Apple's order (and with no window created after it, the
    // setMode answers nothing).
    #expect(check(base + [
        Line.event(1, 1, "requestMode", #""display":"tv","mode":[640,480]"#),
        Line.command(1, "setMode", "tv", #""mode":[640,480],"refresh":60"#),
        Line.command(1, "layoutWindow", "tv", #""frame":[0,0,640,480],"safeFrame":[0,0,640,480]"#),
    ]).map(\.rule) == [.modeBeforeWindow, .setModeWithoutCause])
    expectOnly(.layoutAfterModeChange, at: 8, base + [
        Line.event(1, 1, "modeChanged", #""display":"tv","mode":[640,480]"#),
    ])
}
