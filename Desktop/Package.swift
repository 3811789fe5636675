// swift-tools-version: 6.1
import PackageDescription

// The desktop application: X11 and Wayland backends, SDL windows, text and images, MPRIS, the presenter, the
// browser server, `extdisplay` and the benchmarks. It depends on the library package (the repository's root)
// by path; the library depends on none of this.

/// Swift 6 language mode everywhere; complete concurrency checking is implied by it.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

/// A module of the library package (the repository root).
func kit(_ name: String) -> Target.Dependency {
    .product(name: name, package: "ExternalDisplayKit")
}

let linuxOnly = TargetDependencyCondition.when(platforms: [.linux])

/// The desktop modules below the presenter (what the SDL, image, text and X11 tests import).
let desktopModules: [Target.Dependency] = ["X11Outputs", "SDLWindows", "DesktopText", "DesktopImages", "DesktopModeState",
                                           "DesktopFiles", "DesktopProcesses"]

let package = Package(
    name: "ExternalDisplayDesktop",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "extdisplay", targets: ["extdisplay"]),
        // The video decoder process `extdisplay` starts next to itself (build it with extdisplay).
        .executable(name: "extdisplay-decoder", targets: ["extdisplay-decoder"]),
    ],
    dependencies: [
        .package(name: "ExternalDisplayKit", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.81.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    ],
    targets: [
        // Linux layers and their C shims.
        .systemLibrary(name: "CSDL2",
                       providers: [.apt(["libsdl2-dev", "libsdl2-ttf-dev"])]),
        .systemLibrary(name: "CXRandR", pkgConfig: "xrandr",
                       providers: [.apt(["libxrandr-dev"])]),
        // XInput 2: a pen's pressure on X11 (SDL 2 reports the pen as the mouse, without it), through SDL's event
        // filter so its events keep their place among SDL's.
        .target(name: "CXInput2",
                linkerSettings: [.linkedLibrary("Xi"), .linkedLibrary("X11"), .linkedLibrary("SDL2")]),
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // JPEG slides through libjpeg-turbo (a well-kept decoder; SDL_image would pull in more formats than used).
        .systemLibrary(name: "CJPEG", providers: [.apt(["libjpeg-dev"])]),
        // Fatal signals end the process after the runtime's crash report, so the mode-restore watchdog acts.
        .target(name: "CFatalSignals"),
        // Text in any language: fontconfig picks fallback fonts, HarfBuzz names each character's script,
        // FriBidi orders by direction. All three are dynamically linked system libraries (FriBidi is
        // LGPL-2.1+, fontconfig and HarfBuzz MIT-style); no code of theirs is compiled into the products.
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig",
                       providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi",
                       providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CSDBus", pkgConfig: "libsystemd",
                       providers: [.apt(["libsystemd-dev"])]),
        // The application's pure core: what every key means in each mode (presenting, playing), the quit rule, the
        // playing mode's core around the library's VideoPlayback, which output is the console, which backend runs,
        // what an unknown frame rate is. Foundation and the library only: no C module, no process, no clock.
        .target(name: "ExtDisplayCore",
                dependencies: [kit("ExternalDisplayKit"), kit("ExternalDisplayMedia")],
                swiftSettings: strict + [.enableUpcomingFeature("InternalImportsByDefault")]),
        // Child processes started clean: an empty signal mask, default handlers, optionally a process group of their own.
        .target(name: "DesktopProcesses", swiftSettings: strict),
        // Files read from untrusted places (bounded, regular files only, a timeout) and written atomically.
        .target(name: "DesktopFiles", swiftSettings: strict),
        // Mode records, the exit hooks every restore guard shares and the restore watchdog (X11 and Wayland).
        .target(name: "DesktopModeState",
                dependencies: ["DesktopFiles", "DesktopProcesses", "CFatalSignals"],
                swiftSettings: strict),
        // Bitmaps, the PNG encoder and decoder, JPEG through libjpeg-turbo, BMP through SDL, image limits.
        .target(name: "DesktopImages",
                dependencies: ["DesktopFiles",
                               .target(name: "CSDL2", condition: linuxOnly),
                               .target(name: "CZlib", condition: linuxOnly),
                               .target(name: "CJPEG", condition: linuxOnly)],
                swiftSettings: strict),
        // Text in any language: fontconfig fallback, HarfBuzz shaping through SDL_ttf, FriBidi ordering.
        .target(name: "DesktopText",
                dependencies: ["DesktopImages", "DesktopFiles",
                               .target(name: "CSDL2", condition: linuxOnly),
                               .target(name: "CFontconfig", condition: linuxOnly),
                               .target(name: "CHarfBuzz", condition: linuxOnly),
                               .target(name: "CFriBidi", condition: linuxOnly)],
                swiftSettings: strict),
        // SDL windows, the drawing canvas and the vsync frame clock.
        .target(name: "SDLWindows",
                dependencies: [kit("ExternalDisplayKit"), "ExtDisplayCore", "DesktopImages", "DesktopText",
                               .target(name: "CSDL2", condition: linuxOnly)],
                swiftSettings: strict),
        // X11 outputs: topology, hotplug and modes from RandR on a private connection, and the desktop platform.
        .target(name: "X11Outputs",
                dependencies: [kit("ExternalDisplayKit"), "SDLWindows", "DesktopModeState", "DesktopProcesses", "CFatalSignals",
                               .target(name: "CSDL2", condition: linuxOnly),
                               .target(name: "CXRandR", condition: linuxOnly),
                               .target(name: "CXInput2", condition: linuxOnly)],
                swiftSettings: strict),
        // Wayland: libwayland-client (pkg-config) and the protocol tables and listener shims Swift needs.
        .systemLibrary(name: "CLibWayland", pkgConfig: "wayland-client",
                       providers: [.apt(["libwayland-dev"])]),
        .target(name: "CWaylandClient",
                dependencies: [.target(name: "CLibWayland", condition: linuxOnly)]),
        // Present/ (wlpresent): SDL windows fullscreen on a named output, for `extdisplay present`.
        .target(name: "ExternalDisplayWayland",
                dependencies: [kit("ExternalDisplayKit"), "ExtDisplayCore", "DesktopModeState", "DesktopFiles",
                               .target(name: "CWaylandClient", condition: linuxOnly),
                               .target(name: "CSDBus", condition: linuxOnly),
                               .target(name: "CSDL2", condition: linuxOnly)],
                swiftSettings: strict),
        // Video files through GStreamer 1.22 (LGPL-2+, linked dynamically; plugins loaded at run time, avdec_* ranked
        // down): the decoder and `extdisplay play`'s players (headless snapshots, X11 windows).
        .systemLibrary(name: "CGStreamer", pkgConfig: "gstreamer-app-1.0",
                       providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        // The decoder process's Linux calls Swift's Glibc module lacks: sealed memfd, PR_SET_PDEATHSIG, signal names.
        .target(name: "CDecoderProcess"),
        .target(name: "DesktopVideo",
                dependencies: [kit("ExternalDisplayKit"), "ExtDisplayCore", kit("ExternalDisplayMedia"),
                               "SDLWindows", "DesktopImages", "DesktopText", "DesktopFiles",
                               "ExternalDisplayMPRIS", "DesktopProcesses", "CFatalSignals",
                               .target(name: "CGStreamer", condition: linuxOnly),
                               .target(name: "CDecoderProcess", condition: linuxOnly),
                               .target(name: "CSDL2", condition: linuxOnly)],
                swiftSettings: strict + [.enableUpcomingFeature("InternalImportsByDefault")]),
        // The video decoder process: one per open video file, started by DesktopVideo's VideoDecoder next to the
        // running program, so a decoder that crashes, hangs or floods ends that file, not the talk.
        .executableTarget(name: "extdisplay-decoder",
                          dependencies: ["DesktopVideo"],
                          swiftSettings: strict),
        .target(name: "ExternalDisplayMPRIS",
                dependencies: [kit("ExternalDisplayMedia"),
                               .target(name: "CSDBus", condition: linuxOnly)],
                swiftSettings: strict),

        // The presenter behind `extdisplay present`: deck, console, audience view (Linux showcase).
        .target(name: "ExternalDisplayPresenter",
                dependencies: [kit("ExternalDisplayKit"), "ExtDisplayCore", kit("ExternalDisplayMedia"), "SDLWindows", "DesktopText",
                               "DesktopImages", "DesktopModeState", "DesktopFiles", "DesktopProcesses", "CFatalSignals"],
                swiftSettings: strict),

        // The one presenter loop (injected clock) and its hosts: X11 and Wayland desktops, browsers, the terminal
        // console, MPRIS, headless snapshots on the simulator.
        .target(name: "PresenterRuntime",
                dependencies: ["ExternalDisplayPresenter", kit("ExternalDisplayKit"), kit("ExternalDisplayMedia"),
                               kit("ExternalDisplaySimulator"), "X11Outputs", "SDLWindows", "DesktopText", "DesktopImages", "DesktopModeState", "DesktopFiles", "DesktopProcesses", "ExternalDisplayWayland",
                               "ExternalDisplayMPRIS", "ExternalDisplayBrowser", "DesktopVideo",
                               .target(name: "CSDL2", condition: linuxOnly)],
                swiftSettings: strict + [.enableUpcomingFeature("InternalImportsByDefault")]),

        // Browser displays: each page that opens a URL is an external display (Hummingbird HTTP + WebSocket).
        // Only the CLI, its benchmark and its tests depend on it; no library product does.
        .target(name: "ExternalDisplayBrowser",
                dependencies: [kit("ExternalDisplayKit"), kit("ExternalDisplayMedia"), "DesktopFiles",
                               .product(name: "Hummingbird", package: "hummingbird"),
                               .product(name: "HummingbirdCore", package: "hummingbird"),
                               .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
                swiftSettings: strict),

        // The tests' shared support (and the browser benchmark's): the built binary, child processes started clean,
        // polling with hang guards, Xorg-dummy, window dumps, session buses, hand-written PDFs, real browser pages
        // (Chromium over DevTools), emulated viewers and `present --serve`. Not a product.
        // X Composite, for tests only: a covered window's pixels (the share window's tests).
        .systemLibrary(name: "CXComposite", pkgConfig: "xcomposite", providers: [.apt(["libxcomposite-dev"])]),
        .target(name: "ExtDisplayTestSupport",
                dependencies: ["DesktopProcesses", .target(name: "CSDBus", condition: linuxOnly),
                               .target(name: "CXRandR", condition: linuxOnly),
                               .target(name: "CXComposite", condition: linuxOnly),
                               .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                               .product(name: "NIOCore", package: "swift-nio"),
                               .product(name: "NIOConcurrencyHelpers", package: "swift-nio")],
                swiftSettings: strict),

        // Keys typed into a headless KWin through KDE's fake-input protocol (a privileged client, run as KWin's user
        // by the KWin tests), outputs switched off and on (C on libwayland-client). Test-only, not a product.
        .executableTarget(name: "kwin-test-client",
                          dependencies: [.target(name: "CWaylandClient", condition: linuxOnly)]),

        // The command-line tool.
        .executableTarget(name: "extdisplay",
                          dependencies: [kit("ExternalDisplayKit"), kit("ExternalDisplayMedia"), kit("ExternalDisplaySimulator"), kit("ExternalDisplayTesting"),
                                         "ExtDisplayCore", "X11Outputs", "SDLWindows", "DesktopText", "DesktopImages", "DesktopModeState", "DesktopFiles", "DesktopProcesses", "ExternalDisplayMPRIS", "ExternalDisplayPresenter", "PresenterRuntime",
                                         "ExternalDisplayBrowser", "ExternalDisplayWayland", "DesktopVideo",
                                         .product(name: "ArgumentParser", package: "swift-argument-parser")],
                          swiftSettings: strict),

        // Benchmarks: `swift run -c release edk-bench`.
        .executableTarget(name: "edk-bench",
                          dependencies: [kit("ExternalDisplayKit"), kit("ExternalDisplayMedia"), kit("ExternalDisplaySimulator"), kit("ExternalDisplayTesting")],
                          swiftSettings: strict),
        // Presenter idle-cost benchmark: `swift run -c release present-bench`; against pympress on Xorg-dummy:
        // `scripts/bench-pympress.sh` (`present-bench pympress`).
        .executableTarget(name: "present-bench",
                          dependencies: ["ExternalDisplayPresenter", "PresenterRuntime", "DesktopVideo", kit("ExternalDisplayKit"),
                                         "X11Outputs", "SDLWindows", "DesktopText", "DesktopImages", "DesktopModeState", "DesktopFiles", "DesktopProcesses", "ExtDisplayTestSupport",
                                         .target(name: "CSDL2", condition: linuxOnly),
                                         .target(name: "CXRandR", condition: linuxOnly)],
                          swiftSettings: strict),

        // Browser displays benchmark (latency with real Chromium pages, scale with emulated viewers):
        // `swift build -c release --product extdisplay && swift run -c release browser-bench`.
        .executableTarget(name: "browser-bench",
                          dependencies: ["ExtDisplayTestSupport"],
                          swiftSettings: strict),

        // Tests. Unit tests, one target per module, start no X server, compositor, browser or bus (a few run a
        // tool as an independent oracle: pango-view, mutool, zbarimg, or the built binary headless); integration
        // tests, one target per real component they start, fail (never skip) when it is missing. The helpers for
        // the binary, child processes, polling with hang guards, Xorg-dummy, window dumps and session buses are
        // in ExtDisplayTestSupport. scripts/test.sh runs them, some in a process of their own (it says why).
        .testTarget(name: "ExtDisplayCoreTests",
                    dependencies: ["ExtDisplayCore", kit("ExternalDisplayKit"), kit("ExternalDisplayMedia"),
                                   kit("ExternalDisplayTesting")],
                    swiftSettings: strict),
        .testTarget(name: "DesktopImagesTests",
                    dependencies: desktopModules,
                    swiftSettings: strict),
        .testTarget(name: "SDLWindowsTests",
                    dependencies: desktopModules + [kit("ExternalDisplayKit")],
                    swiftSettings: strict),
        .testTarget(name: "DesktopTextTests",
                    dependencies: desktopModules + ["ExternalDisplayPresenter", "ExtDisplayTestSupport", kit("ExternalDisplayKit")],
                    swiftSettings: strict),
        .testTarget(name: "ExternalDisplayPresenterTests",
                    dependencies: ["ExternalDisplayPresenter", "ExtDisplayCore", "PresenterRuntime", "DesktopImages", kit("ExternalDisplayKit"),
                                   kit("ExternalDisplaySimulator"), kit("ExternalDisplayTesting"), "ExtDisplayTestSupport"],
                    swiftSettings: strict),
        .testTarget(name: "PresenterRuntimeTests",
                    dependencies: ["PresenterRuntime", "ExternalDisplayPresenter", kit("ExternalDisplayKit"), "ExtDisplayTestSupport",
                                   kit("ExternalDisplayTesting")],
                    swiftSettings: strict),
        .testTarget(name: "ExternalDisplayBrowserTests",
                    dependencies: ["ExternalDisplayBrowser", kit("ExternalDisplayKit"), kit("ExternalDisplayMedia"), kit("ExternalDisplaySimulator"), kit("ExternalDisplayTesting"), "ExtDisplayTestSupport",
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                                   .product(name: "HummingbirdWSClient", package: "hummingbird-websocket")],
                    swiftSettings: strict),
        .testTarget(name: "ExternalDisplayMPRISTests",
                    dependencies: ["ExternalDisplayMPRIS", kit("ExternalDisplayMedia")],
                    swiftSettings: strict),
        .testTarget(name: "ExternalDisplayWaylandTests",
                    dependencies: ["ExternalDisplayWayland", kit("ExternalDisplayKit")],
                    swiftSettings: strict),
        // The built `extdisplay` run headless (the simulator, no display server): commands, hostile files and tools.
        .testTarget(name: "ExtDisplayCLITests",
                    dependencies: ["ExtDisplayTestSupport", "ExternalDisplayPresenter", kit("ExternalDisplayKit"),
                                   kit("ExternalDisplaySimulator"), kit("ExternalDisplayTesting")],
                    swiftSettings: strict),

        // Integration: a real Xorg with the dummy driver (scripts/xorg-dummy.sh): `extdisplay list`/`watch`, the
        // desktop platform in this process, the presenter's windows, keys, modes, PDF talks, remote and serve.
        .testTarget(name: "XorgTests",
                    dependencies: desktopModules + ["ExtDisplayTestSupport", "ExternalDisplayPresenter", kit("ExternalDisplayKit")],
                    swiftSettings: strict),
        // Integration: headless sway compositors (scripts/sway-headless.sh): the Wayland backend and presenter.
        .testTarget(name: "SwayTests",
                    dependencies: ["ExtDisplayTestSupport", "DesktopProcesses", "ExternalDisplayWayland", "ExternalDisplayPresenter", kit("ExternalDisplayKit")],
                    swiftSettings: strict),
        // Integration: headless Mutter, GNOME's compositor (scripts/mutter-headless.sh): the Wayland backend with
        // Mutter's D-Bus display configuration, and the presenter.
        .testTarget(name: "MutterTests",
                    dependencies: ["ExtDisplayTestSupport", "ExternalDisplayPresenter"],
                    swiftSettings: strict),
        // Integration: headless KWin, KDE's compositor (scripts/kwin-headless.sh): `list` and `present`, keys typed
        // by kwin-test-client (built with the tests), screenshots through KWin's ScreenShot2 D-Bus API.
        .testTarget(name: "KWinTests",
                    dependencies: ["ExtDisplayTestSupport", "ExternalDisplayPresenter"],
                    swiftSettings: strict),
        // Integration: headless Chromium pages (and emulated viewers) as displays of `present --serve`.
        .testTarget(name: "ChromiumTests",
                    dependencies: ["ExtDisplayTestSupport", .target(name: "CXRandR", condition: linuxOnly)],
                    swiftSettings: strict),
        // Real GStreamer decoding of clips the tests make with gst-launch-1.0 (videotestsrc, vp8enc, webmmux), and
        // `extdisplay play` headless on them; the decoder process against stubs that crash, hang or flood, and a
        // real libde265 crash on an HEVC 4:4:4 clip x265enc makes.
        .testTarget(name: "GStreamerTests",
                    dependencies: ["DesktopVideo", "DesktopImages", "DesktopProcesses", "ExtDisplayTestSupport", "ExternalDisplayPresenter",
                                   "PresenterRuntime", kit("ExternalDisplayKit"),
                                   .target(name: "CXRandR", condition: linuxOnly)],
                    swiftSettings: strict),
        // The benchmarks' own pure parts (the mpv benchmark's frame-number code), tested in this process.
        .testTarget(name: "PresentBenchTests",
                    dependencies: ["present-bench"],
                    swiftSettings: strict),
        // Integration: a private D-Bus session bus (dbus-daemon) driven by playerctl and dbus-send.
        .testTarget(name: "DBusTests",
                    dependencies: ["ExtDisplayTestSupport", "ExternalDisplayMPRIS", "ExternalDisplayWayland",
                                   kit("ExternalDisplayMedia")],
                    swiftSettings: strict),
    ]
)
