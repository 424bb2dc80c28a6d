import Catalog
import Explore
import Foundation
import HTTPServer
import Testing
import TestSupport

@Suite struct SearchInputTests {
    /// Each case: the query items, and the parameter the 400 must name.
    static let badRequests: [(query: [(String, String)], parameter: String)] = [
        ([], "q"),
        ([("q", "")], "q"),
        ([("q", String(repeating: "a", count: 201))], "q"),
        ([("q", String(repeating: "é", count: 201))], "q"),
        ([("q", "one two three four five six seven eight nine")], "q"),
        ([("q", "!!! ... ???")], "q"),
        ([("q", "\" * ( ) : ^ - + \"")], "q"),
        ([("q", "   ")], "q"),
        ([("q", "broadway"), ("q", "42nd")], "q"),
        ([("q", "broadway"), ("limit", "0")], "limit"),
        ([("q", "broadway"), ("limit", "101")], "limit"),
        ([("q", "broadway"), ("limit", "ten")], "limit"),
        ([("q", "broadway"), ("limit", "")], "limit"),
        ([("q", "broadway"), ("from", "1900.5")], "from"),
        ([("q", "broadway"), ("from", "1950"), ("to", "1900")], "from"),
        ([("q", "broadway"), ("to", "x")], "to"),
        ([("q", "broadway"), ("borough", "Jersey")], "borough"),
        ([("q", "broadway"), ("lat", "40.7")], "lon"),
        ([("q", "broadway"), ("lon", "-73.9")], "lat"),
        ([("q", "broadway"), ("lat", "NaN"), ("lon", "-73.9")], "lat"),
        ([("q", "broadway"), ("lat", "91"), ("lon", "-73.9")], "lat"),
        ([("q", "broadway"), ("lat", "40.7"), ("lon", "1e999")], "lon"),
        ([("q", "broadway"), ("lat", "40.7"), ("lon", "-181")], "lon"),
        ([("q", "broadway"), ("cursor", "")], "cursor"),
        ([("q", "broadway"), ("cursor", "garbage")], "cursor"),
        ([("q", "broadway"), ("cursor", "20")], "cursor"),
        ([("q", "broadway"), ("cursor", "-20.0000000000000000")], "cursor"),
        ([("q", "broadway"), ("cursor", "20.00000000000000000")], "cursor"),
    ]

    @Test(arguments: badRequests.indices)
    func badInputIsA400NamingTheParameter(index: Int) throws {
        let (query, parameter) = Self.badRequests[index]
        let problem = try #require(try SearchHarness.refusal(query), "\(query) was answered")
        #expect(problem.status == 400 && problem.header("Content-Type") == "application/problem+json")
        #expect(problem.problemDetail.contains("'\(parameter)'"), "\(query): \(problem.problemDetail)")
    }

    /// A cursor works only for the search that issued it, at any page size.
    @Test func cursorsBelongToTheirSearch() throws {
        let first = try SearchHarness.get([("q", "broadway"), ("limit", "5")]).object()
        let cursor = try #require(first["nextCursor"] as? String)
        #expect(try SearchHarness.refusal([("q", "broadway"), ("limit", "7"), ("cursor", cursor)]) == nil)
        #expect(try SearchHarness.refusal([("q", "BROADWAY!"), ("cursor", cursor)]) == nil)
        for other in [[("q", "broadwa")], [("q", "broadway"), ("borough", "Bronx")], [("q", "broadway"), ("lat", "40.7"), ("lon", "-74")]] {
            let problem = try #require(try SearchHarness.refusal(other + [("cursor", cursor)]))
            #expect(problem.problemDetail.contains("'cursor'"))
        }
    }

    /// FTS5 query syntax in `q` is plain text: the words around it are searched as words.
    @Test(arguments: [
        "broadway OR 42nd", "broadway AND", "NOT broadway", "NEAR(broadway 42nd)", "NEAR(broadway", "\"broadway",
        "broad*", "-broadway", "^broadway", "title:broadway", "(broadway) (street)", "broadway + street", "{intersection}:park",
        "\"\" street", "street\"*", "a-b c:d", "broadway NEAR/2 street", "or", "and", "not", "near",
    ])
    func queryLanguageIsPlainText(q: String) throws {
        let catalog = try SharedCatalog.catalog()
        let oracle = try SearchHarness.oracle()
        let response = try SearchHarness.get([("q", q), ("limit", "100")])
        let page = try response.object()
        let expected = oracle.matches(q, filter: PhotoFilter())
        #expect(page["total"] as? Int == expected.count, "q=\(q)")
        let ids = try #require(page["results"] as? [[String: Any]]).compactMap { $0["photoID"] as? String }
        #expect(Set(ids).isSubset(of: Set(expected.map { catalog.photos[$0].photoID })))
        #expect(ids.count == min(100, expected.count))
    }

    /// Words and their keys, as `GET /search` defines them.
    @Test(arguments: [
        ("Café", ["cafe"]),
        ("CAFÉ cafe", ["cafe", "cafe"]),
        ("cafe\u{301}", ["cafe"]),
        ("Broadway & 42nd St.", ["broadway", "42nd", "st"]),
        ("Søren Łódź Đakovo", ["søren", "łodz", "đakovo"]),
        ("Straße", ["strasse"]),
        ("ΣΊΣΥΦΟΣ", ["σισυφοσ"]),
        ("don't-stop", ["don", "t", "stop"]),
        ("$5 ½ x²", ["5", "x"]),
        ("\u{301}abc", ["abc"]),
        ("東京 タワー", ["東京", "タワー"]),
        ("", []),
    ])
    func wordsAndKeys(text: String, keys: [String]) {
        #expect(SearchWords.words(text).map { SearchWords.key($0) } == keys)
    }

    /// Accents and case in `q` do not change the results; `ø` is not `o`.
    @Test func matchingIgnoresCaseAndAccentsOnly() throws {
        let plain = try SearchHarness.get([("q", "broadway street")]).object()
        let fancy = try SearchHarness.get([("q", "BRÔÁDWÂY, Strëet!")]).object()
        #expect(plain["total"] as? Int == fancy["total"] as? Int)
        #expect((plain["total"] as? Int ?? 0) > 0)
        let oracle = try SearchHarness.oracle()
        let slashed = try SearchHarness.get([("q", "brøadway")]).object()
        #expect(slashed["total"] as? Int == oracle.matches("brøadway", filter: PhotoFilter()).count)
        #expect(slashed["total"] as? Int != plain["total"] as? Int)
    }

    @Test func queryLimitsCountCodePointsAndWords() throws {
        #expect(try SearchHarness.refusal([("q", String(repeating: "a", count: 200))]) == nil)
        #expect(try SearchHarness.refusal([("q", "a b c d e f g h")]) == nil)
        #expect(try SearchHarness.refusal([("q", String(repeating: "é", count: 200))]) == nil)
    }
}
