import Descriptors

/// A socket just accepted, with what admission found of its peer, until an event loop
/// adopts it as a `Connection` or refuses it. `Sendable`: a loop that must make room and
/// has no idle connection to close hands it to the next loop.
struct AcceptedConnection: Sendable {
    let socket: FileDescriptor
    let peer: IPAddress
    /// `peer` in text, for the access log and the refusal log.
    let peerAddress: String
    let isTrustedProxy: Bool
    /// Counted in `ClientConnectionCounts`, to be released when the connection goes.
    let countedForClient: Bool
}
