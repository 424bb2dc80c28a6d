import Glibc

/// The outcome of a non-blocking system call: done with a value, or the kernel said
/// "try again later" (`EAGAIN`/`EWOULDBLOCK`).
enum IOResult<Value> {
    case done(Value)
    case wouldBlock
}

/// The one wrapper every system call goes through (after swift-nio's `System.swift`):
/// retries `EINTR`, maps `EAGAIN`/`EWOULDBLOCK` to `.wouldBlock`, and throws any other
/// failure as `HTTPServerError.systemCall` with the call's name and `errno`.
@inline(__always)
func systemCall<Value: FixedWidthInteger>(
    _ name: StaticString, _ body: () -> Value
) throws(HTTPServerError) -> IOResult<Value> {
    while true {
        let result = body()
        if result != -1 { return .done(result) }
        let code = errno
        switch code {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            return .wouldBlock
        default:
            throw .systemCall(name: name.description, errno: code)
        }
    }
}

/// For calls that never legitimately return `EAGAIN`: the value or a thrown error.
@inline(__always)
func systemCallValue<Value: FixedWidthInteger>(
    _ name: StaticString, _ body: () -> Value
) throws(HTTPServerError) -> Value {
    switch try systemCall(name, body) {
    case .done(let value): return value
    case .wouldBlock: throw .systemCall(name: name.description, errno: EAGAIN)
    }
}
