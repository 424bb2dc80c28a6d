import HTTPServer

extension HTTPError {
    /// The 404 of a path parameter that names nothing, in one phrasing on every route:
    /// "photoID 'nope' names no photo". The value is cut to 80 characters.
    static func unknown(_ parameter: String, _ value: String, names entity: String) -> HTTPError {
        HTTPError(.notFound, detail: "\(parameter) '\(value.prefix(80))' names no \(entity)")
    }

    /// `photoID` names no photo of the catalog.
    static func unknownPhoto(_ photoID: String) -> HTTPError {
        unknown("photoID", photoID, names: "photo")
    }
}
