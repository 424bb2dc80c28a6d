/// libFuzzer target: `ChunkedBodyDecoder` on arbitrary bytes.
///
/// The input is decoded twice: whole, and fed in pieces the way the connection feeds
/// it (the unconsumed rest kept and offered again with the next bytes; piece sizes
/// taken from the input's first byte). Both must reach the same outcome and the same
/// body, the body never passes the limit, and a decoder never consumes more than it
/// was given.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunked(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let step = Int(data[0] % 16) + 1
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let maxBodyBytes = 1024

    let whole = decode(input, pieces: input.count, maxBodyBytes: maxBodyBytes)
    let pieces = decode(input, pieces: step, maxBodyBytes: maxBodyBytes)
    precondition(whole.body.count <= maxBodyBytes, "the body passed its limit")
    switch (whole.outcome, pieces.outcome) {
    case (.complete(let a), .complete(let b)):
        precondition(a == b, "consumed \(a) whole but \(b) in pieces")
        precondition(whole.body == pieces.body, "different bodies whole and in pieces")
    case (.incomplete, .incomplete), (.invalid, .invalid):
        break
    default:
        preconditionFailure("whole: \(whole.outcome), in \(step)-byte pieces: \(pieces.outcome)")
    }
    return 0
}

private enum Outcome {
    /// How many bytes of the input the body took.
    case complete(Int)
    case incomplete
    case invalid
}

private func decode(_ input: [UInt8], pieces step: Int, maxBodyBytes: Int) -> (outcome: Outcome, body: [UInt8]) {
    var decoder = ChunkedBodyDecoder(maxBodyBytes: maxBodyBytes)
    var body: [UInt8] = []
    var pending: [UInt8] = []
    var taken = 0
    var offered = 0
    while offered < input.count || input.isEmpty {
        let next = min(input.count, offered + max(step, 1))
        pending.append(contentsOf: input[offered..<next])
        offered = next
        let progress = pending.withUnsafeBufferPointer { decoder.decode($0, into: &body) }
        precondition(body.count <= maxBodyBytes, "the body passed its limit")
        switch progress {
        case .complete(let consumed):
            precondition(consumed <= pending.count, "consumed more than it was given")
            return (.complete(taken + consumed), body)
        case .incomplete(let consumed):
            precondition(consumed <= pending.count, "consumed more than it was given")
            pending.removeFirst(consumed)
            taken += consumed
        case .invalid:
            return (.invalid, body)
        }
        if input.isEmpty { break }
    }
    return (.incomplete, body)
}
