/// One word of a query as the search looks it up: its key (`SearchWords.key`), alone or,
/// for the last word of the query, as a prefix of the words it matches.
struct SearchPhrase: Hashable, Sendable {
    let key: String
    let isPrefix: Bool
}
