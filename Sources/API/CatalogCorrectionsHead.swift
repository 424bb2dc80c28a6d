/// What `catalog_corrections` holds, in brief: a change of either number means
/// corrections were added (rows are never deleted or changed).
struct CatalogCorrectionsHead: Sendable, Equatable {
    let count: Int
    let lastSequence: Int64
}
