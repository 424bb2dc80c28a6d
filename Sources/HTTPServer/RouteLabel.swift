/// What the request metrics name the route of an answered request by: the pattern the
/// router matched (`Router.patterns`), never the path itself, so that a client cannot
/// make a series per path it invents.
enum RouteLabel: Equatable {
    /// `Router.patterns[index]`.
    case pattern(Int)
    /// A path no route binds (a 404): the label `unmatched`.
    case unmatched
    /// A request whose head could not be read (malformed, too large, too slow: a 4xx or
    /// 505 before any routing): the label `unread`.
    case unread

    /// The labels of the two that are not patterns (a pattern starts with `/`, so
    /// neither can be one).
    static let unmatchedName = "unmatched"
    static let unreadName = "unread"
}
