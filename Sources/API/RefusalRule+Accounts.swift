import Accounts
import HTTPServer

/// The fair-use rules of `Accounts`, recorded by `AccountRoutes` when it answers their
/// errors.
extension RefusalRule {
    /// Too many failed logins for one username from one address.
    static let loginUser = RefusalRule("login-user")
    /// Too many failed logins from one address, whatever the usernames.
    static let loginClient = RefusalRule("login-client")
    /// One more password hash than an address may have running or queued.
    static let hashesPerClient = RefusalRule("hashes-per-client")
    /// Too many accounts created from one address within the hour.
    static let registrations = RefusalRule("registrations")
    /// Too many email verification codes asked for by one user within the hour.
    static let verificationCodes = RefusalRule("verification-codes")
    /// A password hash while the hasher already runs and queues all it may, from any
    /// addresses: `503` (a refusal of capacity, as `connectionsFull` is).
    static let hasherFull = RefusalRule("hasher-full")
}

extension AccountsError {
    /// The fair-use rule this error is a refusal of, nil for the others.
    var refusalRule: RefusalRule? {
        switch self {
        case .tooManyFailedLogins: .loginUser
        case .tooManyFailedLoginsFromClient: .loginClient
        case .tooManyHashes: .hashesPerClient
        case .tooManyRegistrations: .registrations
        case .tooManyVerificationCodes: .verificationCodes
        case .hasherBusy: .hasherFull
        default: nil
        }
    }
}
