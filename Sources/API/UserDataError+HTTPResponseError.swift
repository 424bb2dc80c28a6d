import UserData
import HTTPServer

extension UserDataError: HTTPResponseError {
    /// The problem the client sees: a write the disk cannot hold and a store that is
    /// busy or unreachable are 503s with `Retry-After`. Anything else is a server fault:
    /// nil, so the error reaches the server's 500 handling and its log.
    public var problem: HTTPError? {
        switch kind {
        case .storageFailure:
            return HTTPError.storageUnavailable
        case .unavailable(let seconds):
            return HTTPError(
                .serviceUnavailable, detail: "the user data store is unavailable; try again in \(seconds) s",
                headers: HTTPHeaders([("Retry-After", String(seconds))]))
        case .constraintViolation, .failed:
            return nil
        }
    }
}
