// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "past-nyc",
    // The server runs on Linux (and macOS 15); the client library also on Apple's devices.
    platforms: [.macOS(.v15), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .executable(name: "past-nyc", targets: ["PastNYC"]),
        // The Swift client of the API, for apps: `.package(url: <this repository>, from: …)`.
        .library(name: "PastNYCClient", targets: ["PastNYCClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // The client's runtime: what its generated code calls, over URLSession.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
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

        // Mail that is never lost: the outbox table's rows, sent through an SMTP relay by
        // libcurl, with retries; knows nothing of users.
        .target(
            name: "Mail",
            dependencies: ["Basics", "CCurl", "UserData", .product(name: "Logging", package: "swift-log")]),

        // The domain: photo catalog, and accounts with favorites.
        .target(
            name: "Catalog",
            dependencies: ["Basics", "SQLite", "Gzip", "CPrefetch", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "Accounts",
            dependencies: [
                "Basics", "UserData", "Mail",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),

        // Feedback on the catalog and its moderation: reports of a photo's place, date,
        // rotation or anything else, the moderators' decisions, the rotation agreement, and
        // the corrections an acceptance appends to the user data.
        .target(name: "Feedback", dependencies: ["Catalog", "Accounts", "UserData"]),
        // The photographs themselves: fetched from their sources (libcurl), checked, turned and
        // shrunk (TurboJPEG), kept on disk with a SQLite index; knows nothing of HTTP or the catalog.
        .target(
            name: "Images",
            dependencies: [
                "Basics", "Descriptors", "SQLite", "CCurl", "CTurboJPEG", .product(name: "Crypto", package: "swift-crypto"),
            ]),

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
                "Basics", "HTTPServer", "Catalog", "Accounts", "UserData", "Explore", "Walks", "Feedback", "WebAssets",
                "CEpoll", "CPrefetch", "Gzip", "Images", "Mail", "Metrics",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The `past-nyc` executable: CLI, configuration, signals.
        .executableTarget(
            name: "PastNYC",
            dependencies: [
                "API", "Basics", "HTTPServer", "Catalog", "Accounts", "UserData", "Explore", "Images", "Mail",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The Swift client: generated from openapi.yaml (Generated/, by
        // scripts/generate-client.sh) plus its middlewares. Depends on nothing of the server.
        .target(
            name: "PastNYCClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),

        // What every test target may use, depending on nothing of the server: temporary
        // directories, a seeded random generator, the package's folder.
        .target(name: "TestSupportCore"),
        // Helpers shared by the server's tests: a raw HTTP client, a running application or
        // executable, gunzip; they re-export TestSupportCore.
        .target(
            name: "TestSupport",
            dependencies: ["TestSupportCore", "Basics", "HTTPServer", "API", "Catalog", "Accounts", "Explore", "Gzip", "Descriptors", "Postgres", "Images", .product(name: "Logging", package: "swift-log")]
        ),

        .testTarget(name: "BasicsTests", dependencies: ["Basics", "TestSupportCore"]),
        .testTarget(name: "MetricsTests", dependencies: ["Metrics", "TestSupportCore"]),
        .testTarget(name: "SQLiteTests", dependencies: ["SQLite", "TestSupportCore"]),
        .testTarget(name: "GzipTests", dependencies: ["Gzip", "Descriptors", "TestSupportCore"]),
        .testTarget(name: "ImagesTests", dependencies: ["Images", "SQLite", "TestSupport"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Descriptors", "TestSupport"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "API", "Explore", "HTTPServer", "Gzip", "TestSupport"]),
        .testTarget(name: "MailTests", dependencies: ["Mail", "UserData", "TestSupport"]),
        .testTarget(name: "UserDataTests", dependencies: ["UserData", "SQLite", "Postgres", "TestSupport"]),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "UserData", "API", "HTTPServer", "SQLite", "Mail", "TestSupport"]),
        .testTarget(name: "ExploreTests", dependencies: ["Basics", "Explore", "Catalog", "API", "HTTPServer", "Gzip", "TestSupport"]),
        .testTarget(name: "WalksTests", dependencies: ["Walks", "Catalog", "Accounts", "UserData", "TestSupport"]),
        .testTarget(
            name: "FeedbackTests",
            dependencies: ["Feedback", "Catalog", "Accounts", "UserData", "API", "HTTPServer", "TestSupport"]),
        .testTarget(name: "WebAssetsTests", dependencies: ["WebAssets", "HTTPServer", "TestSupport"]),
        .testTarget(name: "APITests", dependencies: ["API", "Basics", "Catalog", "HTTPServer", "WebAssets", "TestSupport", "Images"]),
        // Every operation through the client against the real executable, as an app calls it.
        .testTarget(
            name: "PastNYCClientTests",
            dependencies: [
                "PastNYCClient", "PastNYC", "TestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .testTarget(name: "IntegrationTests", dependencies: ["API", "Accounts", "UserData", "Basics", "Catalog", "SQLite", "Postgres", "TestSupport", "PastNYC", "Walks", "Feedback", "Images", "TestSupportCore"]),
    ]
)
