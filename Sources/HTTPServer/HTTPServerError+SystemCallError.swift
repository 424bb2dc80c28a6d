import Basics

extension HTTPServerError {
    /// The result of `body`, whose system call failure is rethrown as `.systemCall`:
    /// threads and the worker pool come from Basics, which knows nothing of the server.
    static func rethrowing<Value>(_ body: () throws(SystemCallError) -> Value) throws(HTTPServerError) -> Value {
        do {
            return try body()
        } catch {
            throw .systemCall(name: error.name, errno: error.errno)
        }
    }
}
