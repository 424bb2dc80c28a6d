/// Unicode full case folding (the `C` and `F` mappings of CaseFolding.txt), for
/// comparing text ignoring case: search keys and topic names.
public enum CaseFolding {
    /// `text` case-folded, scalar by scalar.
    public static func fold(_ text: some StringProtocol) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        var folded = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { append(scalar, to: &folded) }
        return String(folded)
    }

    /// Appends one scalar, case-folded. The standard library exposes no folding table, so
    /// a scalar that changes when case-folded is mapped to its uppercase and back to
    /// lowercase (`ß` → `SS` → `ss`, `ς` → `Σ` → `σ`, `ﬁ` → `fi`), repeated until stable
    /// (`ẞ` → `ß` → `ss`); scalars that folding leaves alone (`ı`, `ø`) stay.
    static func append(_ scalar: Unicode.Scalar, to key: inout String.UnicodeScalarView) {
        guard scalar.properties.changesWhenCaseFolded else {
            key.append(scalar)
            return
        }
        var folded = String(scalar).uppercased().lowercased()
        for _ in 0..<2 where folded.unicodeScalars.contains(where: { $0.properties.changesWhenCaseFolded }) {
            folded = folded.uppercased().lowercased()
        }
        key.append(contentsOf: folded.unicodeScalars)
    }
}
