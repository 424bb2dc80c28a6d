/// The methods the request metrics count apart: those of RFC 9110 §9.3 this server
/// routes, and `other` for any other token (a client may send any, and must not make a
/// series per token it invents).
enum MethodLabels {
    static let labels = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"]

    static var count: Int { labels.count }

    @inline(__always)
    static func index(of method: HTTPMethod) -> Int {
        switch method.rawValue {
        case "GET": 0
        case "HEAD": 1
        case "POST": 2
        case "PUT": 3
        case "PATCH": 4
        case "DELETE": 5
        case "OPTIONS": 6
        default: 7
        }
    }
}
