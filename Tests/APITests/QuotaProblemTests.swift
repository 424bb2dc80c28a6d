@testable import API
import Accounts
import Testing
import Walks

/// The answers of the per-user quotas: a 409 whose detail names the limit and its number.
@Suite struct QuotaProblemTests {
    @Test(arguments: [
        (0, "0"), (7, "7"), (999, "999"), (1_000, "1,000"), (10_000, "10,000"), (123_456, "123,456"),
        (1_234_567, "1,234,567"), (-1_000, "-1,000"),
    ])
    func numbersAreGroupedByThousands(_ number: Int, _ grouped: String) {
        #expect(number.groupedByThousands == grouped)
    }

    @Test func theQuotasAre409sNamingTheirLimits() throws {
        let walks = try #require(WalkError.walkLimitReached(maximumWalks: WalkRules.maximumWalks).problem)
        #expect(walks.status.code == 409)
        #expect(walks.detail == "a user keeps at most 1,000 walks; delete one first")
        let favorites = try #require(AccountsError.favoriteLimitReached(maximum: Favorites.defaultMaximum).problem)
        #expect(favorites.status.code == 409)
        #expect(favorites.detail == "a user keeps at most 10,000 favorites; remove one first")
    }
}
