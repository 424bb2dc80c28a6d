/// A fair-use rule that refused something: the label of its counter and of its log
/// line (`rule=connections-per-client`). Each module names its own rules as static
/// members in an extension, next to the code that applies them.
public struct RefusalRule: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(_ name: String) {
        self.name = name
    }

    public var description: String { name }
}
