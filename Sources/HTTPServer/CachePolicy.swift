/// What a route's answers tell caches (RFC 9111 §5.2.2), declared once per route in the
/// route table and written by the server, never by a handler.
///
/// Whatever the route declares, any answer to a request that carried an `Authorization`
/// field gets `Cache-Control: no-store` (a shared cache must not keep what a token
/// unlocked, RFC 9111 §3.5), except a CORS preflight's, which browsers cache on their own
/// terms (`Access-Control-Max-Age`).
public struct CachePolicy: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case unspecified, shared, revalidate, noStore
    }

    let kind: Kind
    /// The `Cache-Control` value the policy writes, made once when the route is declared.
    let value: String

    /// Nothing is said: for answers that change from one moment to the next and hold no
    /// one's data (`/healthz`).
    public static let unspecified = CachePolicy(kind: .unspecified, value: "")

    /// The same for everyone and changed only by data a new release brings: a `200`,
    /// `206` or `304` to `GET` or `HEAD` carries `Cache-Control: public, max-age=<maxAge>`
    /// (seconds), unless the handler set a `Cache-Control` of its own. Strong ETags let
    /// a cache revalidate for a `304` once the age runs out.
    public static func shared(maxAge: Int) -> CachePolicy {
        precondition(maxAge >= 0, "max-age is a number of seconds")
        return CachePolicy(kind: .shared, value: "public, max-age=\(maxAge)")
    }

    /// The same for everyone, but liable to change at any moment and cheap to confirm by
    /// its strong ETag: every answer, errors included, carries `Cache-Control: no-cache`,
    /// so a cache may keep it but must revalidate it before each use (RFC 9111 §5.2.2.4).
    public static let revalidate = CachePolicy(kind: .revalidate, value: "no-cache")

    /// Holds a user's data or a secret: every answer, errors included, carries
    /// `Cache-Control: no-store`.
    public static let noStore = CachePolicy(kind: .noStore, value: "no-store")
}
