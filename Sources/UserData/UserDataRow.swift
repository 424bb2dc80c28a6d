/// One row of a query's result, whichever store ran it: columns by 0-based index,
/// read as the type the query selected.
public protocol UserDataRow {
    func isNull(_ column: Int32) -> Bool
    func int64(_ column: Int32) -> Int64
    func int(_ column: Int32) -> Int
    func double(_ column: Int32) -> Double
    func text(_ column: Int32) -> String
    func optionalText(_ column: Int32) -> String?
    func blob(_ column: Int32) -> [UInt8]
}
