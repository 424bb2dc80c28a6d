import Foundation
import PastNYCClient
import Testing
import TestSupport

extension EndToEndTests {
    /// The README's example runs, and the README quotes it as it is.
    @Suite struct ReadmeExample {
        @Test func runs() async throws {
            let url = try #require(RunningServer.url)
            let password = "how the other half lives"
            #expect(try await firstCalls(serverURL: url, username: "jacob.riis", password: password))

            let auth = try await makeClient().login(body: .json(.init(username: "jacob.riis", password: password))).ok.body.json
            #expect(auth.user.favoriteCount == 1)
        }

        @Test func readmeQuotesIt() throws {
            let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            let source = try String(contentsOf: here.appendingPathComponent("ReadmeExample.swift"), encoding: .utf8)
            let readme = try String(
                contentsOf: URL(fileURLWithPath: PackageRoot.path).appendingPathComponent("docs/CLIENT.md"), encoding: .utf8
            )
            let begin = try #require(source.range(of: "// BEGIN README EXAMPLE\n"))
            let end = try #require(source.range(of: "// END README EXAMPLE"))
            let example = source[begin.upperBound..<end.lowerBound]
            #expect(example.count > 500)
            #expect(readme.contains("```swift\n" + example + "```\n"))
        }
    }
}
