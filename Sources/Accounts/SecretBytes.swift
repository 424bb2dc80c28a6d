/// The two byte operations secrets need: fresh randomness and a comparison that
/// does not leak where two values differ.
enum SecretBytes {
    /// Bytes from the system CSPRNG (`getrandom(2)` on Linux).
    static func random(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Compares without an early exit, so the time taken does not tell how many
    /// leading bytes matched. Only the lengths (public: fixed by the algorithm) may
    /// end it early.
    static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices {
            difference |= lhs[index] ^ rhs[index]
        }
        return difference == 0
    }
}
