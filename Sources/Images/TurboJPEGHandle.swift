import CTurboJPEG

/// One TurboJPEG instance (`tjhandle`): a decompressor, compressor or transformer,
/// destroyed exactly once, when the value goes. An instance keeps state between calls,
/// so each belongs to one thread at a time: not `Sendable`; make one per operation.
final class TurboJPEGHandle {
    enum Kind {
        case decompress, compress, transform
    }

    let raw: tjhandle

    init(_ kind: Kind) throws(JPEGError) {
        let made: tjhandle? =
            switch kind {
            case .decompress: tjInitDecompress()
            case .compress: tjInitCompress()
            case .transform: tjInitTransform()
            }
        guard let made else { throw .unavailable }
        raw = made
    }

    deinit {
        tjDestroy(raw)
    }

    /// The message of this instance's last failure.
    var lastError: String {
        String(cString: tjGetErrorStr2(raw))
    }
}
