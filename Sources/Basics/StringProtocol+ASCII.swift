extension StringProtocol {
    /// ASCII case-insensitive equality (`"Content-Length"` equals `"content-length"`),
    /// as HTTP field names and tokens compare. Non-ASCII bytes must match exactly.
    @inlinable
    public func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        ASCII.caseInsensitiveEquals(utf8, other.utf8)
    }

    /// Without leading and trailing SP and HTAB (HTTP's optional whitespace, RFC 9110
    /// §5.6.3). Other whitespace, Unicode or line breaks, stays.
    @inlinable
    public func trimmingSpacesAndTabs() -> SubSequence {
        var start = startIndex
        var end = endIndex
        while start < end, let byte = self[start].asciiValue, ASCII.isSpaceOrTab(byte) { start = index(after: start) }
        while start < end, let byte = self[index(before: end)].asciiValue, ASCII.isSpaceOrTab(byte) {
            end = index(before: end)
        }
        return self[start..<end]
    }
}
