/// What a pure parser makes of the bytes received so far (picohttpparser's contract).
enum ParseResult<Value> {
    /// A whole value, and how many bytes of the input it used.
    case complete(Value, consumed: Int)
    /// The input is a valid prefix; more bytes are needed.
    case incomplete
    /// The input can never become valid: answer `status`, then close the connection.
    /// `refusal`: the fair-use rule the input breaks, when it is one (counted in `Refusals`).
    case invalid(HTTPStatus, reason: String, refusal: RefusalRule? = nil)
}
