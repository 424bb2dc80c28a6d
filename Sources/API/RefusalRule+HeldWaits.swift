import HTTPServer

extension RefusalRule {
    /// A `GET /sync?wait=` refused because its user already holds the most requests
    /// allowed at once (`SyncRoutes`, `--max-held-waits-per-user`).
    static let heldWaits = RefusalRule("held-waits")
}
