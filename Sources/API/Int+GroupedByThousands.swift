extension Int {
    /// The number with a comma between groups of three digits ("10,000"), as the
    /// details of the quota refusals name their limits, whatever the server's locale.
    var groupedByThousands: String {
        let digits = Array(String(magnitude))
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return self < 0 ? "-" + grouped : grouped
    }
}
