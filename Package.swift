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
        // libcurl: fetching the photographs from their sources, and sending mail (SMTP).
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libjpeg-turbo's TurboJPEG API: lossless rotation and scaled decoding of JPEGs.
        .systemLibrary(name: "CTurboJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        // epoll and eventfd (Linux headers the Glibc module leaves out).
        .systemLibrary(name: "CEpoll"),
        // The compiler's cache prefetch hint (a header-only shim).
        .systemLibrary(name: "CPrefetch"),

        // The one owner of each file descriptor: closes it exactly once.
        .target(name: "Descriptors"),
        // The small helpers every module shares, written once: hex, base64, ASCII text,
        // UTC dates, threads and a worker pool. Depends on nothing (Sources/Basics/README.md).
        .target(name: "Basics", exclude: ["README.md"]),
        // Metrics a Prometheus scrapes: the text format, histograms, and counters one
        // thread writes and any reads; each module writes its own families through it.
        .target(name: "Metrics", dependencies: ["Descriptors"]),

        // Thin, safe wrappers over them.
        .target(name: "SQLite", dependencies: ["CSQLite"]),
        .target(name: "Gzip", dependencies: ["CZlib", "Descriptors"]),
        .target(name: "Postgres", dependencies: ["CPostgres"]),

        // Our own HTTP/1.1 server: sockets, parser, connections, router. Knows nothing of photos or users.
        .target(
            name: "HTTPServer",
            dependencies: [
                "Basics", "CEpoll", "Descriptors", "Gzip", "Metrics",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),

        // The user data behind one interface: the store protocols, the SQLite store (the
        // default, with group commit) and the PostgreSQL one (a pool), their schemas and
        // migrations, the one store error, and the copy from one store to the other.
        .target(name: "UserData", dependencies: ["Basics", "Descriptors", "Metrics", "SQLite", "Postgres"]),

        // The domain: photo catalog, and accounts with favorites.
        .target(
            name: "Catalog",
            dependencies: ["Basics", "SQLite", "Gzip", "CPrefetch", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "Accounts",
            dependencies: [
                "Basics", "UserData",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // Exploring the catalog: map clusters, full-text search, walking tours.
        .target(name: "Explore", dependencies: ["Basics", "Catalog", "SQLite"]),

        // Walks: accepting points and choosing photos over the catalog; their rows live
        // in the user-data store, under the users they belong to.
        .target(name: "Walks", dependencies: ["Basics", "Catalog", "Accounts", "UserData"]),

        // The web folder (the map, the API reference, vendored libraries) in memory, one
        // route per file. Knows nothing of the domain.
        .target(name: "WebAssets", dependencies: ["HTTPServer", "Gzip"]),

        // The only module that knows both HTTP and the domain.
        .target(
            name: "API",
            dependencies: [
                "Basics", "HTTPServer", "Catalog", "Accounts", "UserData", "Explore", "Walks", "WebAssets", "CPrefetch", "Gzip",
                "Metrics", .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The `past-nyc` executable: CLI, configuration, signals.
        .executableTarget(
            name: "PastNYC",
            dependencies: [
                "API", "Basics", "HTTPServer", "Catalog", "Accounts", "UserData", "Explore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // What every test target may use, depending on nothing of the server: temporary
        // directories, a seeded random generator, the package's folder.
        .target(name: "TestSupportCore"),
        // Helpers shared by the server's tests: a raw HTTP client, a running application or
        // executable, gunzip; they re-export TestSupportCore.
        .target(
            name: "TestSupport",
            dependencies: ["TestSupportCore", "Basics", "HTTPServer", "API", "Catalog", "Accounts", "Explore", "Gzip", "Descriptors", "Postgres", .product(name: "Logging", package: "swift-log")]
        ),

        .testTarget(name: "BasicsTests", dependencies: ["Basics", "TestSupportCore"]),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics", "TestSupportCore"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupportCore"]),
        .testTarget(name: "GzipTests", dependencies: ["Gzip", "Descriptors", "TestSupportCore"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Descriptors", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "API", "HTTPServer", "Gzip", "TestSupport"]),
        .testTarget(name: "UserDataTests", dependencies: ["UserData", "SQLite", "Postgres", "TestSupport"]),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "UserData", "API", "HTTPServer", "SQLite", "TestSupport"]),
        .testTarget(name: "ExploreTests", dependencies: ["Basics", "Explore", "Catalog", "API", "HTTPServer", "Gzip", "TestSupport"]),
        .testTarget(name: "WalksTests", dependencies: ["Walks", "Catalog", "Accounts", "UserData", "TestSupport"]),
        .testTarget(name: "WebAssetsTests", dependencies: ["WebAssets", "HTTPServer", "TestSupport"]),
        .testTarget(name: "APITests", dependencies: ["API", "Basics", "Catalog", "HTTPServer", "WebAssets", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["API", "Accounts", "UserData", "Basics", "Catalog", "Metrics", "SQLite", "Postgres", "TestSupport", "PastNYC", "Walks"]),
    ]
)
