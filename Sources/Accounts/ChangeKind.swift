/// What kind of item a change of `GET /sync` is about; the raw value is the wire's
/// `type` and the change log's `kind` column.
public enum ChangeKind: String, Sendable, CaseIterable {
    case favorite
    case recent
    case walk
    case walkEntry
    case profile
}
