import HTTPServer
import Images

/// An `ImagePack` as the HTTP server streams it: its headers made as they are reached,
/// its kept files sent with `sendfile(2)`.
struct PackBody: StreamedBody {
    let pack: ImagePack

    var length: Int { pack.length }
    var segmentCount: Int { pack.segmentCount }

    func segmentStart(_ index: Int) -> Int { pack.segmentStart(index) }

    func segment(_ index: Int) -> StreamedSegment {
        switch pack.segment(index) {
        case .bytes(let bytes): .bytes(bytes)
        case .file(let path): .file(path: path, offset: 0)
        }
    }
}
