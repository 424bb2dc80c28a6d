// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "past-nyc",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "past-nyc", targets: ["PastNYC"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
    ],
    targets: [
        // C libraries of the system, wrapped below.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // epoll and eventfd (Linux headers the Glibc module leaves out).
        .systemLibrary(name: "CEpoll"),
        // The compiler's cache prefetch hint (a header-only shim).
        .systemLibrary(name: "CPrefetch"),

        // Thin, safe wrappers over them.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "Gzip", dependencies: ["CZlib"]),
        .target(name: "Postgres", dependencies: ["CPostgres"]),

        // Our own HTTP/1.1 server: sockets, parser, connections, router. Knows nothing of photos or users.
        .target(
            name: "HTTPServer",
            dependencies: [
                "CEpoll", "Gzip",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // The domain: photo catalog, and accounts with favorites.
        .target(name: "Catalog", dependencies: ["SQLite", "Gzip", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "Accounts",
            dependencies: [
                "SQLite", "Postgres",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // Exploring the catalog: map clusters, full-text search, walking tours.
        .target(name: "Explore", dependencies: ["Catalog", "SQLite"]),

        // Walks: accepting points and choosing photos over the catalog; their rows live
        // in the accounts database, under the users they belong to.
        .target(name: "Walks", dependencies: ["Catalog", "Accounts", "SQLite"]),

        // The only module that knows both HTTP and the domain.
        .target(
            name: "API",
            dependencies: [
                "HTTPServer", "Catalog", "Accounts", "Explore", "Walks", "CPrefetch",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The `past-nyc` executable: CLI, configuration, signals.
        .executableTarget(
            name: "PastNYC",
            dependencies: [
                "API", "HTTPServer", "Catalog", "Accounts", "Explore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // Helpers shared by the tests: a raw HTTP client, temporary directories, a running server.
        .target(
            name: "TestSupport",
            dependencies: [
                "HTTPServer", "API", "Catalog", "Accounts", "Explore", "Gzip", "Postgres",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "SQLiteTests", dependencies: ["SQLite"]),
        .testTarget(name: "GzipTests", dependencies: ["Gzip"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "API", "HTTPServer", "Gzip", "TestSupport"]),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "API", "HTTPServer", "SQLite", "TestSupport"]),
        .testTarget(name: "ExploreTests", dependencies: ["Explore", "Catalog", "API", "HTTPServer", "TestSupport"]),
        .testTarget(name: "WalksTests", dependencies: ["Walks", "Catalog", "Accounts", "TestSupport"]),
        .testTarget(
            name: "IntegrationTests", dependencies: ["API", "Accounts", "Catalog", "SQLite", "TestSupport", "PastNYC", "Walks"]),
    ]
)
