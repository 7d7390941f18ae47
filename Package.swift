// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// Tests import what they exercise; MemberImportVisibility would make them list every module behind it.
let testSwiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Stratus",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "stratus", targets: ["stratus"]),
        .executable(name: "stratus-bench", targets: ["stratus-bench"]),
        .library(name: "StratusModel", targets: ["StratusModel"]),
        .library(name: "StratusServer", targets: ["StratusServer"]),
        .library(name: "StratusConsole", targets: ["StratusConsole"]),
        .library(name: "StratusKit", targets: ["StratusKit"]),
        .library(name: "StratusCloudKit", targets: ["StratusCloudKit"]),
        // `import CloudKit` on Linux: Apple's module name, re-exporting StratusCloudKit.
        .library(name: "CloudKit", targets: ["CloudKit"]),
        // A development server inside a test process, for tests of one's own CloudKit code.
        .library(name: "StratusTesting", targets: ["StratusTesting"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", from: "0.2.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.1.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .target(name: "StratusModel", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "StratusStore",
            dependencies: [
                "StratusModel",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StratusStoreSQLite",
            dependencies: [
                "StratusModel",
                "StratusStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StratusStorePostgres",
            dependencies: [
                "StratusModel",
                "StratusStore",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // Stores for tests only: scratch PostgreSQL databases and the store a test server runs on.
        .target(
            name: "StratusStoreTesting",
            dependencies: [
                "StratusStore", "StratusStoreSQLite",
                "StratusStorePostgres",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StratusCore",
            dependencies: [
                "StratusModel",
                "StratusStore",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Asset bytes stream through Core as NIO's ByteBuffers.
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StratusServer",
            dependencies: [
                "StratusModel",
                "StratusCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The HTTP server's own configuration (`.http1`, the connection cap).
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StratusConsole",
            dependencies: [
                "StratusModel",
                "StratusCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // One way to run a server: the composition (store, services, seeding, console) served in
        // this process (ServerRun) or as a `stratus serve` child (ServerProcess) — every server the
        // tests, StratusTesting, `stratus fuzz`, `stratus exec` and the bench run.
        .target(
            name: "StratusServerRun",
            dependencies: [
                "StratusServer",
                "StratusConsole",
                "StratusCore",
                "StratusStore",
                "StratusStoreSQLite",
                "StratusModel",
                "StratusProcess",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "StratusTesting",
            dependencies: [
                "StratusCloudKit",
                "StratusServerRun",
                "StratusProcess",
                "StratusServer",
                "StratusCore",
                "StratusModel",
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "stratus",
            dependencies: [
                "StratusServer",
                "StratusServerRun",
                "StratusProcess",
                "StratusConsole",
                "StratusFuzz",
                "StratusKit",
                "StratusCore",
                "StratusStore",
                "StratusStoreSQLite",
                "StratusStorePostgres",
                "StratusModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "stratus-bench",
            dependencies: [
                "StratusModel",
                "StratusProcess",
                // The one launcher of a server process (`ServerProcess`).
                "StratusServerRun",
                // The cloudkit workload: the module's overhead against raw CKWS JSON.
                "StratusCloudKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // What the executables and the tests need of the process itself (child processes, free
        // ports, the open-file limit), written once: the C library and Foundation only.
        .target(name: "StratusProcess", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "StratusFuzz",
            dependencies: [
                "StratusKit",
                "StratusCloudKit",
                "StratusModel",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // Registers Apple's archived class names when a program loads (a C constructor).
        .target(name: "StratusCloudKitLoader", exclude: ["README.md"]),
        .target(
            name: "StratusCloudKit",
            dependencies: [
                "StratusModel",
                "StratusCloudKitLoader",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // What CKSyncEngine's own tests sync with instead of a server: a scripted database (the
        // engine's `SyncDatabase` seam) — package-only, no product.
        .target(name: "StratusCloudKitTesting", dependencies: ["StratusCloudKit", "StratusModel"], exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "CloudKit",
            dependencies: ["StratusCloudKit", .target(name: "CoreLocation", condition: .when(platforms: [.linux]))],
            exclude: ["README.md"], swiftSettings: swiftSettings
        ),
        // `import CoreLocation` on Linux: the same CLLocation (a dependency of CloudKit there only).
        .target(name: "CoreLocation", dependencies: ["StratusCloudKit"], exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "StratusKit",
            dependencies: [
                "StratusModel",
                "StratusCloudKit",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "StratusKit",
                "StratusCloudKit",
                "StratusFuzz",
                "StratusServer",
                "StratusCore",
                "StratusStore",
                "StratusStorePostgres", "StratusStoreTesting", "StratusServerTesting",
                "StratusModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            swiftSettings: testSwiftSettings
        ),
        // CloudKit's own API against the dev server, `import CloudKit` only: the server in the test
        // process (Support/DevServer.swift, over StratusServerRun), a `stratus serve` process only
        // where a test kills it; the `stratus` binary for operators' commands.
        .testTarget(
            name: "CloudKitTests",
            dependencies: [
                "CloudKit", "StratusCloudKitTesting", "StratusTesting", "StratusServerRun", "StratusServer", "StratusCore", "StratusModel", "StratusProcess", "stratus",
                .product(name: "Logging", package: "swift-log"),
            ],
            // Archives written by Apple's CloudKit (ArchiveCompatibilityTests).
            resources: [.copy("Fixtures")], swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "StratusCloudKitTests", dependencies: ["StratusCloudKit", "StratusModel", "StratusCloudKitTesting"], swiftSettings: testSwiftSettings
        ),
        .testTarget(name: "StratusKitTests", dependencies: ["StratusKit", "StratusModel"], swiftSettings: testSwiftSettings),
        .testTarget(name: "StratusModelTests", dependencies: ["StratusModel"], swiftSettings: testSwiftSettings),
        .testTarget(
            name: "StratusCoreTests",
            dependencies: [
                "StratusCore", "StratusStore", "StratusStoreSQLite", "StratusModel", .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "StratusStorePostgresTests",
            dependencies: ["StratusStorePostgres", "StratusStoreTesting", "StratusStore", "StratusStoreSQLite", "StratusModel"],
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "StratusStoreTests",
            dependencies: [
                "StratusStore", "StratusStoreSQLite", "StratusStorePostgres", "StratusStoreTesting", "StratusModel",
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            // Databases made by earlier schemas, read by path (MigrationHistoryTests).
            exclude: ["Fixtures"],
            swiftSettings: testSwiftSettings
        ),
        // The server tests' harness: a real server on a real socket, and its CKWS calls (the server's and the console's tests).
        .target(
            name: "StratusServerTesting",
            dependencies: [
                "StratusServer", "StratusServerRun", "StratusConsole", "StratusCore", "StratusStore", "StratusStorePostgres", "StratusStoreTesting", "StratusModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "StratusConsoleTests",
            dependencies: [
                "StratusServerTesting", "StratusConsole", "StratusServer", "StratusCore", "StratusModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: testSwiftSettings
        ),
        .testTarget(
            name: "StratusServerTests",
            dependencies: [
                "StratusServerTesting", "StratusServerRun",
                "StratusServer",
                "StratusConsole",
                "StratusCore",
                "StratusStore", "StratusStoreSQLite",
                "StratusStorePostgres", "StratusStoreTesting",
                "StratusModel",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: testSwiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
