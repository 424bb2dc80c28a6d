import Foundation

/// libFuzzer target: `JSONReader`, and the request bodies read through `JSONBody` as the
/// account, walk-point and profile handlers read them. Run with `-max_len=65536`, the
/// largest body the server takes (`Fuzz/JSONReader/max_len`).
///
/// Any input must be read or refused within 20 ms of CPU (the contract's bound for a body
/// of at most 64 KiB; measured on this thread's CPU clock, so that a fuzzer preempted on a
/// busy machine is not a finding); a value read must read back the same once written out
/// again; through `JSONBody`, any body must end in a value or an `HTTPError` with a 4xx
/// status: never a crash, never another error type (which the server would answer with a 500).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
    let started = threadCPUNanoseconds()
    let outcome = Result { () throws(JSONReaderError) in try JSONReader.read(body) }
    let elapsed = threadCPUNanoseconds() - started
    precondition(elapsed <= 20_000_000, "reading \(size) bytes took \(elapsed / 1_000) µs of CPU")

    if case .success(let value) = outcome {
        let text = written(value)
        guard case .success(let again) = Result(catching: { () throws(JSONReaderError) in try JSONReader.read(text) }) else {
            preconditionFailure("a value read does not read back: \(String(decoding: text, as: UTF8.self))")
        }
        precondition(written(again) == text, "a value read back differs: \(String(decoding: text, as: UTF8.self))")
    }

    var headers = HTTPHeaders()
    headers.add("Content-Type", "application/json")
    let request = HTTPRequest(method: .post, target: "/users", path: "/users", headers: headers, body: body)
    expectClientError {
        let fields = try JSONBody(request, shape: "{\"username\", \"password\"}")
        try fields.rejectUnknownFields(known: ["username", "password", "latitude", "longitude", "points"])
        _ = try fields.string("username")
        _ = try fields.number("latitude", in: -90...90)
    }
    expectClientError {
        for point in try JSONBody(request, shape: "{\"points\": [{\"latitude\", \"longitude\"}]}").objects("points", count: 1...500) {
            _ = try point.number("latitude", in: -90...90)
        }
    }
    expectClientError { _ = try ProfilePatchBody.parse(request) }
    expectClientError { try JSONBody.requireEmpty(request) }
    return 0
}

/// This thread's CPU time: monotonic, and blind to the time the thread waits for a core.
private func threadCPUNanoseconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return time.tv_sec * 1_000_000_000 + time.tv_nsec
}

/// `value` as JSON text, members in code-point order of their names (so that two equal
/// objects are written alike, whatever order their dictionaries hold them in).
private func written(_ value: JSONValue) -> [UInt8] {
    var writer = JSONWriter()
    write(value, to: &writer)
    return writer.bytes
}

private func write(_ value: JSONValue, to writer: inout JSONWriter) {
    switch value {
    case .null: writer.null()
    case .bool(let bool): writer.bool(bool)
    case .number(let number): writer.number(number)
    case .string(let string): writer.string(string)
    case .array(let elements):
        writer.beginArray()
        for element in elements { write(element, to: &writer) }
        writer.endArray()
    case .object(let members):
        writer.beginObject()
        for (name, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            writer.key(name)
            write(member, to: &writer)
        }
        writer.endObject()
    }
}

private func expectClientError(_ body: () throws -> Void) {
    do {
        try body()
    } catch let error as HTTPError {
        precondition((400..<500).contains(error.status.code), "status \(error.status.code): \(error.detail)")
    } catch {
        preconditionFailure("not an HTTPError: \(error)")
    }
}
