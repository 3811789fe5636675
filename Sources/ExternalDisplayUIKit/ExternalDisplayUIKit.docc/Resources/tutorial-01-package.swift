// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Presenter",
    platforms: [.iOS(.v15)],
    dependencies: [
        .package(url: "https://example.com/your-fork/ExternalDisplayKit.git", from: "1.0.0"),
    ],
    targets: [
        .target(name: "Presenter", dependencies: [
            .product(name: "ExternalDisplayUIKit", package: "ExternalDisplayKit"),
        ]),
        .testTarget(name: "PresenterTests", dependencies: [
            "Presenter",
            .product(name: "ExternalDisplaySimulator", package: "ExternalDisplayKit"),
            .product(name: "ExternalDisplayTesting", package: "ExternalDisplayKit"),
        ]),
    ]
)
