import Foundation

/// Counts failed logins over `LoginThrottle.window` per (username ignoring case, client
/// address) and per client address: after `LoginThrottle.failuresPerUsername` for one
/// username from one address, that pair is refused; after `failuresPerClient` from one
/// address whatever the usernames, every login from it is refused; each until enough of
/// its failures have left the window. A success clears its pair only: the address's
/// count keeps every failure. `LoginThrottle` keeps the counts in memory;
/// `StoredLoginThrottle` in the shared store, so that every instance sees them.
public protocol LoginThrottling: Sendable {
    /// The refusal a login of `key` gets now (`tooManyFailedLogins` or
    /// `tooManyFailedLoginsFromClient`, whichever lasts longer), nil when it may try.
    func refusal(_ key: LoginThrottle.Key, now: Date) throws -> AccountsError?
    func recordFailure(_ key: LoginThrottle.Key, now: Date) throws
    func recordSuccess(_ key: LoginThrottle.Key) throws
}

extension LoginThrottling {
    /// The longer-lasting of the pair's and the address's refusals.
    static func refusal(pairRetryAfter: Int?, clientRetryAfter: Int?) -> AccountsError? {
        switch (pairRetryAfter, clientRetryAfter) {
        case (nil, nil): nil
        case (let pair?, nil): .tooManyFailedLogins(retryAfterSeconds: pair)
        case (let pair?, let client?) where pair >= client: .tooManyFailedLogins(retryAfterSeconds: pair)
        case (_, let client?): .tooManyFailedLoginsFromClient(retryAfterSeconds: client)
        }
    }
}
