import CTurboJPEG

/// What the server does to JPEGs, all through libjpeg-turbo's TurboJPEG API: check that
/// bytes are a whole JPEG that decodes, turn one losslessly (`tjTransform`, the DCT
/// blocks moved, never decoded and encoded again), and make a thumbnail by decoding at a
/// reduced scale (the inverse DCT of fewer coefficients, far cheaper than a full decode
/// and a resize). Every function is pure and thread-safe; none runs on an event loop.
public enum JPEGImage {
    /// What a header says.
    public struct Info: Sendable, Equatable {
        public let width: Int
        public let height: Int
        /// Grayscale: thumbnails of it are encoded as grayscale too.
        public let isGray: Bool
        /// CMYK or YCCK: decoded to CMYK pixels (libjpeg converts those to nothing else).
        public let isCMYK: Bool

        public var longestSide: Int { max(width, height) }

        public init(width: Int, height: Int, isGray: Bool, isCMYK: Bool) {
            self.width = width
            self.height = height
            self.isGray = isGray
            self.isCMYK = isCMYK
        }
    }

    /// Larger sides are refused: 16,384 px bounds what decoding one may allocate, far
    /// above any photograph here (600 px, and about 1,600 for the largest full images).
    public static let maximumSide = 16384

    /// The header of `bytes`, after checking that the whole image decodes without a
    /// warning (`TJFLAG_STOPONWARNING`: libjpeg only warns of a truncated file, and
    /// substitutes grey for the missing part). Decoded at the smallest scale, 1/8, so
    /// checking costs a fraction of a full decode, every entropy-coded byte still read.
    public static func check(_ bytes: [UInt8]) throws(JPEGError) -> Info {
        let handle = try TurboJPEGHandle(.decompress)
        let info = try header(bytes, handle)
        let factor = scalingFactors.min { $0.ratio < $1.ratio }!
        let width = factor.scaled(info.width), height = factor.scaled(info.height)
        let format = info.isCMYK ? TJPF_CMYK : TJPF_GRAY
        var pixels = [UInt8](repeating: 0, count: width * height * pixelSize(format))
        let result = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(
                    handle.raw, source.baseAddress, UInt(source.count), target.baseAddress, Int32(width), 0, Int32(height),
                    Int32(format.rawValue), TJFLAG_STOPONWARNING)
            }
        }
        guard result == 0 else { throw .notAJPEG(handle.lastError) }
        return info
    }

    /// `bytes` turned clockwise by `turn`, losslessly: the coefficients move, nothing is
    /// decoded or encoded again (`tjTransform`). Where a side is not a whole number of
    /// MCU blocks (8 or 16 px), the partial blocks on the edge that would end up first
    /// cannot move losslessly and are trimmed (`TJXOPT_TRIM`, jpegtran's `-trim`): the
    /// turned image may be up to 15 px narrower on that side. Metadata is left behind
    /// (`TJXOPT_COPYNONE`), so no orientation tag turns the pixels a second time.
    public static func turned(_ bytes: [UInt8], by turn: ImageTurn) throws(JPEGError) -> [UInt8] {
        guard turn != .none else { return bytes }
        let handle = try TurboJPEGHandle(.transform)
        var transform = tjtransform()
        let operation: TJXOP =
            switch turn {
            case .none: TJXOP_NONE
            case .quarter: TJXOP_ROT90
            case .half: TJXOP_ROT180
            case .threeQuarters: TJXOP_ROT270
            }
        transform.op = Int32(operation.rawValue)
        transform.options = TJXOPT_TRIM | TJXOPT_COPYNONE
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let result = bytes.withUnsafeBufferPointer { source in
            tjTransform(handle.raw, source.baseAddress, UInt(source.count), 1, &output, &outputSize, &transform, 0)
        }
        defer { tjFree(output) }
        guard result == 0, let output else { throw .turnFailed(handle.lastError) }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    /// A thumbnail of `bytes` whose longest side lies in `ImageSize.thumbnailSides` (or
    /// comes as close as twice the source allows): decoded at the TurboJPEG scale (n/8)
    /// that fits closest to the source's own size (the largest that shrinks, else the
    /// smallest that enlarges), then, for a source over 1,600 px, averaged down by a
    /// whole factor; encoded at quality 85, grayscale when the source is.
    public static func thumbnail(of bytes: [UInt8]) throws(JPEGError) -> [UInt8] {
        let handle = try TurboJPEGHandle(.decompress)
        let info = try header(bytes, handle)
        let sides = ImageSize.thumbnailSides
        let fitting = scalingFactors.filter { sides.contains($0.scaled(info.longestSide)) }
        let byRatio: (ScalingFactor, ScalingFactor) -> Bool = { $0.ratio < $1.ratio }
        let factor =
            fitting.filter { $0.ratio <= 1 }.max(by: byRatio) ?? fitting.min(by: byRatio)
            ?? (info.longestSide > sides.upperBound ? scalingFactors.min(by: byRatio)! : scalingFactors.max(by: byRatio)!)
        var image = try decode(bytes, info: info, factor: factor, handle: handle)
        let longest = max(image.width, image.height)
        if longest > sides.upperBound {
            image = image.reduced(by: (longest + sides.upperBound - 1) / sides.upperBound)
        }
        return try encode(image)
    }

    /// Decoded pixels: RGB, or one byte a pixel for grayscale.
    public struct Pixels: Sendable, Equatable {
        public let width: Int
        public let height: Int
        public let isGray: Bool
        /// Rows top to bottom, `width * (isGray ? 1 : 3)` bytes each.
        public let bytes: [UInt8]

        public init(width: Int, height: Int, isGray: Bool, bytes: [UInt8]) {
            precondition(bytes.count == width * height * (isGray ? 1 : 3), "pixels of another size")
            self.width = width
            self.height = height
            self.isGray = isGray
            self.bytes = bytes
        }

        /// Each `factor`×`factor` block averaged into one pixel (a box filter), the
        /// partial blocks on the right and bottom edges averaged over what they hold.
        func reduced(by factor: Int) -> Pixels {
            guard factor > 1 else { return self }
            let channels = isGray ? 1 : 3
            let newWidth = (width + factor - 1) / factor, newHeight = (height + factor - 1) / factor
            var reduced = [UInt8](repeating: 0, count: newWidth * newHeight * channels)
            for row in 0..<newHeight {
                for column in 0..<newWidth {
                    let rows = (row * factor)..<min((row + 1) * factor, height)
                    let columns = (column * factor)..<min((column + 1) * factor, width)
                    for channel in 0..<channels {
                        var sum = 0
                        for y in rows {
                            for x in columns { sum += Int(bytes[(y * width + x) * channels + channel]) }
                        }
                        let count = rows.count * columns.count
                        reduced[(row * newWidth + column) * channels + channel] = UInt8((sum + count / 2) / count)
                    }
                }
            }
            return Pixels(width: newWidth, height: newHeight, isGray: isGray, bytes: reduced)
        }
    }

    /// The whole image decoded at full size: RGB, or grayscale for a grayscale JPEG.
    public static func decode(_ bytes: [UInt8]) throws(JPEGError) -> Pixels {
        let handle = try TurboJPEGHandle(.decompress)
        let info = try header(bytes, handle)
        return try decode(bytes, info: info, factor: scalingFactors.first { $0.ratio == 1 }!, handle: handle)
    }

    /// `pixels` as a baseline JPEG at `quality` (1…100): 4:2:0 colour, or grayscale.
    public static func encode(_ pixels: Pixels, quality: Int = 85) throws(JPEGError) -> [UInt8] {
        let handle = try TurboJPEGHandle(.compress)
        var output: UnsafeMutablePointer<UInt8>?
        var outputSize: UInt = 0
        let format = pixels.isGray ? TJPF_GRAY : TJPF_RGB
        let subsampling = pixels.isGray ? TJSAMP_GRAY : TJSAMP_420
        let result = pixels.bytes.withUnsafeBufferPointer { source in
            tjCompress2(
                handle.raw, source.baseAddress, Int32(pixels.width), 0, Int32(pixels.height), Int32(format.rawValue), &output,
                &outputSize, Int32(subsampling.rawValue), Int32(quality), 0)
        }
        defer { tjFree(output) }
        guard result == 0, let output else { throw .encodeFailed(handle.lastError) }
        return Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
    }

    /// The header's facts, refusing what is not a JPEG and sides past `maximumSide`.
    private static func header(_ bytes: [UInt8], _ handle: TurboJPEGHandle) throws(JPEGError) -> Info {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let result = bytes.withUnsafeBufferPointer { source in
            tjDecompressHeader3(handle.raw, source.baseAddress, UInt(source.count), &width, &height, &subsampling, &colorspace)
        }
        guard result == 0 else { throw .notAJPEG(handle.lastError) }
        guard width > 0, height > 0, width <= maximumSide, height <= maximumSide else {
            throw .tooLarge(width: Int(width), height: Int(height))
        }
        return Info(
            width: Int(width), height: Int(height), isGray: colorspace == Int32(TJCS_GRAY.rawValue),
            isCMYK: colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue))
    }

    /// Decodes at `factor` to RGB, or to grayscale for a grayscale source. A CMYK source
    /// cannot be decoded to either; it is refused.
    private static func decode(_ bytes: [UInt8], info: Info, factor: ScalingFactor, handle: TurboJPEGHandle) throws(JPEGError) -> Pixels {
        guard !info.isCMYK else { throw .notAJPEG("a CMYK image, which no browser shows reliably") }
        let width = factor.scaled(info.width), height = factor.scaled(info.height)
        let format = info.isGray ? TJPF_GRAY : TJPF_RGB
        var pixels = [UInt8](repeating: 0, count: width * height * pixelSize(format))
        let result = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                tjDecompress2(
                    handle.raw, source.baseAddress, UInt(source.count), target.baseAddress, Int32(width), 0, Int32(height),
                    Int32(format.rawValue), 0)
            }
        }
        guard result == 0 else { throw .notAJPEG(handle.lastError) }
        return Pixels(width: width, height: height, isGray: info.isGray, bytes: pixels)
    }

    /// A scale TurboJPEG decodes at, `numerator/denominator`.
    struct ScalingFactor {
        let numerator: Int
        let denominator: Int

        var ratio: Double { Double(numerator) / Double(denominator) }

        /// TurboJPEG's `TJSCALED`: the side rounded up.
        func scaled(_ side: Int) -> Int { (side * numerator + denominator - 1) / denominator }
    }

    /// The scales this libjpeg-turbo decodes at (1/8 to 2 in eighths for 2.x).
    static let scalingFactors: [ScalingFactor] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [ScalingFactor(numerator: 1, denominator: 1)] }
        return (0..<Int(count)).map { ScalingFactor(numerator: Int(factors[$0].num), denominator: Int(factors[$0].denom)) }
    }()

    private static func pixelSize(_ format: TJPF) -> Int {
        switch format {
        case TJPF_GRAY: 1
        case TJPF_RGB: 3
        default: 4
        }
    }
}
