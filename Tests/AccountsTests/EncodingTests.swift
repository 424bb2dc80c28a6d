import Testing

@testable import Accounts

@Suite struct EncodingTests {
    @Test(arguments: [Int64(1), 9, 10, 255, 1_000_000, Int64.max])
    func cursorsRoundTrip(sequence: Int64) throws {
        let cursor = SequenceCursor.favorites.encode(sequence: sequence)
        #expect(try SequenceCursor.favorites.decode(cursor) == sequence)
        #expect(cursor.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func aCursorOfOneListIsRefusedByAnother() throws {
        let cursor = SequenceCursor.favorites.encode(sequence: 42)
        #expect(throws: AccountsError.invalidCursor) { try SequenceCursor(prefix: "e1:").decode(cursor) }
    }

    @Test func passwordHashStringsRoundTrip() throws {
        let hash = PasswordHash(cost: .owasp, salt: Array(0..<16), hash: Array(100..<132))
        #expect(hash.encoded.hasPrefix("$scrypt$ln=17,r=8,p=1$AAECAwQFBgcICQoLDA0ODw$"))
        #expect(PasswordHash(encoded: hash.encoded) == hash)
    }

    @Test(arguments: [
        "", "$scrypt$ln=17,r=8,p=1$AAEC", "$bcrypt$ln=17,r=8,p=1$AAEC$AAEC", "$scrypt$ln=40,r=8,p=1$AAEC$AAEC",
        "$scrypt$ln=17,r=8$AAEC$AAEC", "$scrypt$ln=17,r=8,p=1,p=1$AAEC$AAEC", "$scrypt$ln=17,r=8,p=1$$AAEC",
        "$scrypt$ln=17,r=8,p=1$AAEC$AAEC$", "$scrypt$ln=17,r=8,p=1$AA=C$AAEC",
    ])
    func malformedHashStringsAreRejected(encoded: String) {
        #expect(PasswordHash(encoded: encoded) == nil)
    }

    @Test func hashesVerifyOnlyTheirPassword() throws {
        let hasher = try PasswordHasher(cost: .test)
        let hash = try hasher.hash("correct horse battery", clientAddress: "192.0.2.1")
        #expect(try hasher.verify("correct horse battery", against: hash, clientAddress: "192.0.2.1"))
        #expect(try !hasher.verify("correct horse batterY", against: hash, clientAddress: "192.0.2.1"))
        #expect(try hasher.hash("correct horse battery", clientAddress: "192.0.2.1").salt != hash.salt, "every hash has its own salt")
    }

    @Test(arguments: [
        ([UInt8](), [UInt8](), true), ([1, 2, 3], [1, 2, 3], true), ([1, 2, 3], [1, 2, 4], false),
        ([1, 2, 3], [1, 2], false), ([0], [128], false),
    ])
    func constantTimeComparison(lhs: [UInt8], rhs: [UInt8], equal: Bool) {
        #expect(SecretBytes.constantTimeEquals(lhs, rhs) == equal)
    }
}
