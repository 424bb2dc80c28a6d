import Accounts
import HTTPServer

/// The body of `PATCH /users/me`: a JSON merge patch (RFC 7396) of the profile,
/// read into a `ProfilePatch`. Shapes are checked here (415 for another media
/// type, 400 naming the member for a non-object body, an unknown member, a wrong
/// type, `home` without exactly `latitude` and `longitude`); the values' rules
/// (name length, coordinate ranges, the address) are `Profiles.update`'s.
enum ProfilePatchBody {
    /// RFC 7396 §4 registers `application/merge-patch+json`; plain JSON is accepted too.
    static let mediaTypes = ["application/merge-patch+json", "application/json"]
    static let fields = ["displayName", "home", "email"]
    static let homeFields = ["latitude", "longitude"]
    static let shape =
        #"{"displayName": string or null, "home": {"latitude": number, "longitude": number} or null, "email": string or null}"#

    static func parse(_ request: HTTPRequest) throws -> ProfilePatch {
        let members = try JSONBody(request, shape: shape, mediaTypes: mediaTypes).members
        if let unknown = members.keys.sorted().first(where: { !fields.contains($0) }) {
            throw HTTPError(
                .badRequest, detail: "\(unknown) is not a profile field (the fields are \(fields.joined(separator: ", ")))")
        }
        var patch = ProfilePatch()
        switch members["displayName"] {
        case nil: break
        case .null: patch.displayName = .cleared
        case .string(let name): patch.displayName = .set(name)
        case let other?: throw HTTPError(.badRequest, detail: "displayName must be a string or null, not \(other.kind)")
        }
        switch members["home"] {
        case nil: break
        case .null: patch.home = .cleared
        case .object(let home): patch.home = .set(try place(home))
        case let other?: throw HTTPError(.badRequest, detail: "home must be an object or null, not \(other.kind)")
        }
        switch members["email"] {
        case nil: break
        case .null: patch.email = .cleared
        case .string(let email): patch.email = .set(email)
        case let other?: throw HTTPError(.badRequest, detail: "email must be a string or null, not \(other.kind)")
        }
        return patch
    }

    /// `{"latitude", "longitude"}`, both numbers, nothing else.
    private static func place(_ members: [String: JSONValue]) throws -> HomePlace {
        if let unknown = members.keys.sorted().first(where: { !homeFields.contains($0) }) {
            throw HTTPError(.badRequest, detail: "home.\(unknown) is not a field of home (only latitude and longitude)")
        }
        func coordinate(_ name: String) throws -> Double {
            switch members[name] {
            case .number(let value)?: return value
            case nil: throw HTTPError(.badRequest, detail: "home.\(name) is required")
            case let other?: throw HTTPError(.badRequest, detail: "home.\(name) must be a number, not \(other.kind)")
            }
        }
        return HomePlace(latitude: try coordinate("latitude"), longitude: try coordinate("longitude"))
    }
}
