// swift-tools-version: 6.1
import PackageDescription

// The library app developers add. Its only dependency is swift-log: an iOS app that adds this package for
// `ExternalDisplayUIKit` resolves swift-log and nothing else (README: "Adding the package"). The desktop
// application — X11 and Wayland backends, SDL windows, text, images, MPRIS, the presenter, the browser server,
// `extdisplay` and the benchmarks — is the package in `Desktop/`, which depends on this one by path.

/// Swift 6 language mode everywhere; complete concurrency checking is implied by it.
let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
]

let package = Package(
    name: "ExternalDisplayKit",
    platforms: [.iOS(.v15), .macOS(.v12)],
    products: [
        .library(name: "ExternalDisplayKit", targets: ["ExternalDisplayKit"]),
        .library(name: "ExternalDisplayMedia", targets: ["ExternalDisplayMedia"]),
        .library(name: "ExternalDisplaySimulator", targets: ["ExternalDisplaySimulator"]),
        .library(name: "ExternalDisplayTesting", targets: ["ExternalDisplayTesting"]),
        .library(name: "ExternalDisplayUIKit", targets: ["ExternalDisplayUIKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        // Test-only: SwiftPM resolves a dependency's test-only packages for that package's own tests, never for
        // a package that depends on it (measured in the README).
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
        // `swift package generate-documentation`: a command plugin, likewise never resolved for a dependent.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
    ],
    targets: [
        // Core: Foundation and swift-log only.
        .target(name: "ExternalDisplayKit",
                dependencies: [.product(name: "Logging", package: "swift-log")],
                swiftSettings: strict),
        .target(name: "ExternalDisplayMedia", swiftSettings: strict),
        // The deterministic platform: simulated displays from a catalog, virtual time, recording surfaces. The
        // presenter's headless mode runs on it as a platform.
        .target(name: "ExternalDisplaySimulator",
                dependencies: ["ExternalDisplayKit"],
                swiftSettings: strict),
        // For tests: scenario files, the trace, the independent trace checker and the seeded fuzzer.
        .target(name: "ExternalDisplayTesting",
                dependencies: ["ExternalDisplayKit", "ExternalDisplayMedia", "ExternalDisplaySimulator"],
                swiftSettings: strict),

        // Apple layer: every file is wrapped in `#if canImport(UIKit)`, so on Linux the module is empty.
        .target(name: "ExternalDisplayUIKit",
                dependencies: ["ExternalDisplayKit", "ExternalDisplayMedia"],
                swiftSettings: strict),

        // Tests.
        .testTarget(name: "ExternalDisplayKitTests",
                    dependencies: ["ExternalDisplayKit", "ExternalDisplaySimulator", "ExternalDisplayTesting",
                                   .product(name: "PropertyBased", package: "swift-property-based")],
                    swiftSettings: strict),
        .testTarget(name: "ExternalDisplayTestingTests",
                    dependencies: ["ExternalDisplayKit", "ExternalDisplaySimulator", "ExternalDisplayTesting",
                                   .product(name: "PropertyBased", package: "swift-property-based")],
                    exclude: ["Golden"],
                    swiftSettings: strict),
        .testTarget(name: "ExternalDisplayMediaTests",
                    dependencies: ["ExternalDisplayMedia", "ExternalDisplayTesting",
                                   .product(name: "PropertyBased", package: "swift-property-based")],
                    swiftSettings: strict),
        .testTarget(name: "ExternalDisplayUIKitTests",
                    dependencies: ["ExternalDisplayUIKit", "ExternalDisplayKit", "ExternalDisplayMedia",
                                   "ExternalDisplaySimulator", "ExternalDisplayTesting",
                                   .product(name: "PropertyBased", package: "swift-property-based")],
                    exclude: ["Recordings"],
                    swiftSettings: strict),
    ]
)
