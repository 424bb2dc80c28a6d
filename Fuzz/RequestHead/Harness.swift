/// libFuzzer target: `RequestHeadParser` on arbitrary bytes.
///
/// Besides crashes, it checks the contract the connection relies on: a complete head
/// consumed no more than it was given and only what is inside the head limit, and every
/// proper prefix of a complete head is `.incomplete` (never `.invalid`), so a head
/// that arrives in pieces is read the same as one that arrives whole.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let limits = ParseLimits(maxHeadBytes: 2048, maxURIBytes: 1024, maxBodyBytes: 4096)
    guard case .complete(let head, let consumed) = RequestHeadParser.parse(input, limits: limits) else { return 0 }
    precondition(consumed > 0 && consumed <= size, "consumed \(consumed) of \(size) bytes")
    if case .contentLength(let length) = head.framing {
        precondition(length > 0 && length <= limits.maxBodyBytes, "Content-Length \(length) passed the limit")
    }
    precondition(head.path.first == "/", "a path that does not start with /")
    for cut in Set([consumed - 1, consumed / 2, consumed / 3]) where cut >= 0 {
        let prefix = UnsafeBufferPointer(rebasing: input[..<cut])
        guard case .incomplete = RequestHeadParser.parse(prefix, limits: limits) else {
            preconditionFailure("the \(cut)-byte prefix of a complete \(consumed)-byte head is not incomplete")
        }
    }
    return 0
}
