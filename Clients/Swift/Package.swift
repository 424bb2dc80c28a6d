// swift-tools-version:6.1
import PackageDescription

// The Swift client of the PAST NYC API, generated at build time from the repository's
// openapi.yaml (`Sources/PastNYCClient/openapi.yaml` is a symbolic link to it) by
// swift-openapi-generator. A package of its own, so that building the server never
// builds the generator.
let package = Package(
    name: "PastNYCClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "PastNYCClient", targets: ["PastNYCClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "PastNYCClient",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // End-to-end: the generated client against the real server binary named by
        // PAST_NYC_SERVER (built by the repository's root package).
        .testTarget(
            name: "PastNYCClientTests",
            dependencies: [
                "PastNYCClient",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
    ]
)
