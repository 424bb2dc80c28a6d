import HTTPServer

extension RefusalRule {
    /// Every rule the API applies, declared to `Refusals` when metrics are on, so that
    /// each is scraped as 0 before its first refusal.
    static let apiRules: [RefusalRule] = [
        loginUser, loginClient, hashesPerClient, registrations, hasherFull, walks, favorites, userWrites, heldWaits,
        feedbacks, verificationCodes, bodyDepth, bodyValues, bodyRepeatedName, bodyStreamSafe, bodyEncoding,
    ]
}
