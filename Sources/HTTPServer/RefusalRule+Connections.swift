extension RefusalRule {
    /// A connection from an address that already holds `maxConnectionsPerClient`: `429` on accept.
    public static let connectionsPerClient = RefusalRule("connections-per-client")
    /// A connection while `maxConnections` are open and none of them is idle: `503` on accept.
    public static let connectionsFull = RefusalRule("connections-full")
    /// An idle keep-alive connection closed to make room, from 90 % of `maxConnections` on.
    public static let idleEvicted = RefusalRule("idle-evicted")

    /// The rules the HTTP server applies itself: on accept, and to a request's head.
    public static let httpServerRules: [RefusalRule] = [
        connectionsPerClient, connectionsFull, idleEvicted, authorizationHeaders,
    ]
}
