/// The fair-use limits `Accounts` applies per client address, with the defaults of
/// `past-nyc serve` (the contract's). 0 lifts a limit.
public struct AccountLimits: Sendable {
    /// Failed logins from one address within 15 minutes, whatever the usernames, after
    /// which every login from it is refused (`LoginThrottling`).
    public var loginFailuresPerClient = 20
    /// Password hashes one address may have running or queued at once (`PasswordHasher`).
    public var hashesPerClient = 2
    /// Accounts one address may create within an hour (`RegistrationThrottling`).
    public var registrationsPerHour = 20

    public init() {}
}
