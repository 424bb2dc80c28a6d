extension RefusalRule {
    /// A request head with more than one `Authorization` field: `400`, before routing
    /// (`RequestSemantics`).
    public static let authorizationHeaders = RefusalRule("authorization-headers")
}
