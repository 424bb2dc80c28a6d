/// An error that knows the answer it is: its status, problem type, title, detail and
/// headers (`Retry-After`, `WWW-Authenticate`), as an `HTTPError`. A domain error adopts
/// it where HTTP is known (`Sources/API`, `<Error>+HTTPResponseError.swift`), and is then
/// thrown as it is from any handler: `RequestPipeline.run` renders every error in one
/// place, as its problem, or as a logged 500 when it has none.
public protocol HTTPResponseError: Error {
    /// The problem the client sees; nil for a server fault (the error is logged and the
    /// client gets a 500 that tells nothing of it).
    var problem: HTTPError? { get }
}

extension HTTPError: HTTPResponseError {
    public var problem: HTTPError? { self }
}
