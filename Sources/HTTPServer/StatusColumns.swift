/// The status codes the request metrics count apart, each in a column of its own: every
/// final status code in IANA's HTTP Status Code Registry
/// (https://www.iana.org/assignments/http-status-codes/), so whatever the server sends
/// is counted under its exact code, with no list of our own to keep up to date. A code
/// outside the registry, which no `HTTPStatus` of this server is, lands in one last
/// column, labelled `other`.
enum StatusColumns {
    static let codes: [Int] =
        Array(200...208) + [226] + Array(300...308) + Array(400...418) + Array(421...426) + [428, 429, 431, 451]
        + Array(500...508) + [510, 511]

    /// With the `other` column.
    static let count = codes.count + 1

    /// The label of each column: its code, then `other`.
    static let labels = codes.map(String.init) + ["other"]

    /// For each code from 0 to 599, its column.
    private static let columnOfCode: [UInt8] = {
        var table = [UInt8](repeating: UInt8(codes.count), count: 600)
        for (column, code) in codes.enumerated() { table[code] = UInt8(column) }
        return table
    }()

    @inline(__always)
    static func column(of code: Int) -> Int {
        code >= 0 && code < columnOfCode.count ? Int(columnOfCode[code]) : codes.count
    }
}
