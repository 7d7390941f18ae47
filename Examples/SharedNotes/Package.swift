// swift-tools-version: 6.1
import PackageDescription

// A notes app's sync layer, written as an app developer writes one against Apple's CloudKit, and
// its tests against Stratus. On Linux `import CloudKit` is Stratus's `CloudKit` product; on
// Apple platforms the example builds against `StratusCloudKit` (an app ships Apple's framework).
let package = Package(
    name: "SharedNotes",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "Stratus", path: "../..")],
    targets: [
        .target(
            name: "SharedNotes",
            dependencies: [
                .product(name: "CloudKit", package: "Stratus", condition: .when(platforms: [.linux])),
                .product(name: "StratusCloudKit", package: "Stratus", condition: .when(platforms: [.macOS])),
            ]
        ),
        .testTarget(
            name: "SharedNotesTests",
            dependencies: ["SharedNotes", .product(name: "StratusTesting", package: "Stratus")]
        ),
    ]
)
