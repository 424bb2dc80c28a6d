/// No account has this username (compared ignoring case), or its deletion has begun.
public struct UnknownUsername: Error, Sendable, Equatable, CustomStringConvertible {
    public let username: String

    public init(username: String) {
        self.username = username
    }

    public var description: String { "no account has the username \(username)" }
}
