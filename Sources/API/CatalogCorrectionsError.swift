/// Why the accepted corrections could not be read into the catalog.
enum CatalogCorrectionsError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A row of `catalog_corrections` of a kind this server does not know (a newer
    /// server's): this one cannot make the generation it belongs to.
    case unknownKind(String, sequence: Int64)

    var description: String {
        switch self {
        case .unknownKind(let kind, let sequence):
            return "catalog correction \(sequence) is of the unknown kind '\(kind.prefix(40))'"
        }
    }
}
