import Foundation

/// libFuzzer target: the JSON request bodies, read through `JSONBody` as the account,
/// walk-point and profile handlers read them.
///
/// Any body must end in a value or an `HTTPError` with a 4xx status: never a crash,
/// never another error type (which the server would answer with a 500).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONBody(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Array(UnsafeBufferPointer(start: data, count: size))
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
        for point in try JSONBody(request).objects("points", count: 1...500) {
            _ = try point.number("latitude", in: -90...90)
        }
    }
    expectClientError { _ = try ProfilePatchBody.parse(request) }
    expectClientError { try JSONBody.requireEmpty(request) }
    return 0
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
