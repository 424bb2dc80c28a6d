/// What a JSON merge patch (RFC 7396 §2) does to one field: a missing member
/// leaves it, `null` clears it, any other value sets it.
public enum PatchedField<Value: Sendable & Equatable>: Sendable, Equatable {
    case unchanged
    case cleared
    case set(Value)
}
