import Basics

/// A stored password hash as one self-describing string, in the style of the PHC
/// string format: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`, salt and hash in base64
/// without padding.
struct PasswordHash: Sendable, Equatable {
    let cost: ScryptCost
    let salt: [UInt8]
    let hash: [UInt8]

    static let algorithm = "scrypt"

    init(cost: ScryptCost, salt: [UInt8], hash: [UInt8]) {
        self.cost = cost
        self.salt = salt
        self.hash = hash
    }

    /// Parses a stored string; nil when it is not one this code writes.
    init?(encoded: String) {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0].isEmpty, parts[1] == Self.algorithm else { return nil }
        var values: [Substring: Int] = [:]
        for pair in parts[2].split(separator: ",") {
            let keyValue = pair.split(separator: "=", maxSplits: 1)
            guard keyValue.count == 2, let value = Int(keyValue[1]), values[keyValue[0]] == nil else { return nil }
            values[keyValue[0]] = value
        }
        guard values.count == 3,
            let log2Rounds = values["ln"], ScryptCost.log2RoundsRange.contains(log2Rounds),
            let blockSize = values["r"], ScryptCost.blockSizeRange.contains(blockSize),
            let parallelism = values["p"], ScryptCost.parallelismRange.contains(parallelism),
            let salt = Base64.standardUnpadded.decode(parts[3]), !salt.isEmpty,
            let hash = Base64.standardUnpadded.decode(parts[4]), !hash.isEmpty
        else { return nil }
        self.cost = ScryptCost(log2Rounds: log2Rounds, blockSize: blockSize, parallelism: parallelism)
        self.salt = salt
        self.hash = hash
    }

    var encoded: String {
        "$\(Self.algorithm)$\(cost)$\(Base64.standardUnpadded.encode(salt))$\(Base64.standardUnpadded.encode(hash))"
    }
}
