import Basics

/// Whether a request's `Accept-Encoding` (RFC 9110 §12.5.3) allows a gzip response.
enum AcceptEncoding {
    /// True when `gzip` (or `x-gzip`, or `*` absent an explicit gzip) has a q-value above 0.
    static func allowsGzip(_ headers: HTTPHeaders) -> Bool {
        var gzipQuality: Bool?
        var wildcardQuality: Bool?
        for value in headers.values("Accept-Encoding") {
            for element in RequestSemantics.listElements(value) {
                let parts = element.split(separator: ";", omittingEmptySubsequences: false)
                let coding = parts[0].trimmingSpacesAndTabs()
                var acceptable = true
                for parameter in parts.dropFirst() {
                    let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingSpacesAndTabs() }
                    if pair.count == 2, pair[0].caseInsensitiveEquals("q") { acceptable = !isZero(pair[1]) }
                }
                if coding.caseInsensitiveEquals("gzip") || coding.caseInsensitiveEquals("x-gzip") {
                    gzipQuality = (gzipQuality ?? false) || acceptable
                } else if coding == "*" {
                    wildcardQuality = acceptable
                }
            }
        }
        return gzipQuality ?? wildcardQuality ?? false
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`; true only for a zero.
    private static func isZero(_ value: Substring) -> Bool {
        guard value.first == "0" else { return false }
        return value.dropFirst().allSatisfy { $0 == "." || $0 == "0" }
    }
}
