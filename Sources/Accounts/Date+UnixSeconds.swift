import Foundation

extension Date {
    /// The date of a Unix time in whole seconds, as the user data keeps its times.
    init(unixSeconds seconds: Int64) {
        self.init(timeIntervalSince1970: TimeInterval(seconds))
    }
}
