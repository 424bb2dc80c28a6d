// swift-tools-version:6.1
import PackageDescription

// Only a way to run swift-openapi-generator's command at the version the client is
// generated with: `scripts/generate-client.sh` runs it. Nothing here is built by the
// server's package.
let package = Package(
    name: "client-generator",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
    ],
    targets: []
)
