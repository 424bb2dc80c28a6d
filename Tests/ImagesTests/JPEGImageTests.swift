import Images
import Testing
import TestSupport

/// TurboJPEG's checks, lossless turns and thumbnails, on JPEGs made here.
@Suite struct JPEGImageTests {
    /// The mean colour of the square of `side` px around (`x`, `y`).
    static func colour(_ pixels: JPEGImage.Pixels, x: Int, y: Int, side: Int = 8) -> [Int] {
        var sum = [0, 0, 0]
        for row in (y - side / 2)..<(y + side / 2) {
            for column in (x - side / 2)..<(x + side / 2) {
                for channel in 0..<3 { sum[channel] += Int(pixels.bytes[(row * pixels.width + column) * 3 + channel]) }
            }
        }
        return sum.map { $0 / (side * side) }
    }

    /// Where the source's pixel (`x`, `y`) lands after a clockwise turn of a `width`×`height` image.
    static func turned(x: Int, y: Int, width: Int, height: Int, by turn: ImageTurn) -> (Int, Int) {
        switch turn {
        case .none: (x, y)
        case .quarter: (height - 1 - y, x)
        case .half: (width - 1 - x, height - 1 - y)
        case .threeQuarters: (y, width - 1 - x)
        }
    }

    @Test(arguments: [ImageTurn.quarter, .half, .threeQuarters])
    func aTurnMovesEveryPixelAndSwapsTheSidesOfAQuarterTurn(_ turn: ImageTurn) throws {
        let source = TestImageOrigin.full
        let original = try JPEGImage.decode(source)
        let turned = try JPEGImage.decode(JPEGImage.turned(source, by: turn))
        #expect((turned.width, turned.height) == (turn.swapsSides ? (original.height, original.width) : (original.width, original.height)))
        // The source's quarters are told apart by their colours (blue only top left, red
        // rising across, green down): each lands where the turn takes it.
        for (x, y) in [(100, 100), (500, 100), (100, 300), (500, 300), (250, 150), (400, 250)] {
            let (turnedX, turnedY) = Self.turned(x: x, y: y, width: original.width, height: original.height, by: turn)
            let before = Self.colour(original, x: x, y: y), after = Self.colour(turned, x: turnedX, y: turnedY)
            #expect(zip(before, after).allSatisfy { abs($0 - $1) <= 6 }, "(\(x), \(y)) was \(before), is \(after) at (\(turnedX), \(turnedY))")
        }
    }

    @Test func noTurnIsTheSameBytes() throws {
        #expect(try JPEGImage.turned(TestImageOrigin.full, by: .none) == TestImageOrigin.full)
    }

    @Test func fourQuarterTurnsGiveTheSourcePixelsBack() throws {
        var bytes = TestImageOrigin.full
        for _ in 0..<4 { bytes = try JPEGImage.turned(bytes, by: .quarter) }
        #expect(try JPEGImage.decode(bytes) == JPEGImage.decode(TestImageOrigin.full))
    }

    /// Bytes that are no whole JPEG, by name (so a failure names the case, not its bytes).
    static func notAJPEG(_ name: String) -> [UInt8] {
        switch name {
        case "HTML": Array("<!doctype html><title>Not found</title>".utf8)
        case "truncated": Array(TestImageOrigin.full.prefix(TestImageOrigin.full.count / 2))
        case "PNG": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)
        default: []
        }
    }

    @Test(arguments: ["HTML", "empty", "truncated", "PNG"])
    func whatIsNotAWholeJPEGIsRefused(_ name: String) {
        #expect(throws: JPEGError.self) { try JPEGImage.check(Self.notAJPEG(name)) }
    }

    @Test func aWholeJPEGPassesWithItsSides() throws {
        let info = try JPEGImage.check(TestImageOrigin.full)
        #expect((info.width, info.height, info.isGray) == (608, 400, false))
    }

    @Test(arguments: [(608, 400), (760, 512), (1700, 1100), (120, 80), (2000, 90), (150, 100)])
    func aThumbnailsLongestSideIsFrom100To200(_ width: Int, _ height: Int) throws {
        let thumbnail = try JPEGImage.thumbnail(of: TestImageOrigin.jpeg(width: width, height: height))
        let info = try JPEGImage.check(thumbnail)
        #expect(ImageSize.thumbnailSides.contains(info.longestSide), "\(width)×\(height) gave \(info.width)×\(info.height)")
        // The shape is kept, to a pixel or two of rounding.
        #expect(abs(info.height - info.width * height / width) <= 2, "\(width)×\(height) gave \(info.width)×\(info.height)")
    }

    @Test func aThumbnailKeepsTheColoursWhereTheyWere() throws {
        let thumbnail = try JPEGImage.decode(JPEGImage.thumbnail(of: TestImageOrigin.full))
        let topLeft = Self.colour(thumbnail, x: thumbnail.width / 4, y: thumbnail.height / 4, side: 4)
        let bottomRight = Self.colour(thumbnail, x: thumbnail.width * 3 / 4, y: thumbnail.height * 3 / 4, side: 4)
        #expect(topLeft[2] > 200 && bottomRight[2] < 50)
        #expect(bottomRight[0] > topLeft[0] && bottomRight[1] > topLeft[1])
    }

    @Test func aGrayscaleSourceGivesAGrayscaleThumbnail() throws {
        let gray = JPEGImage.Pixels(width: 640, height: 480, isGray: true, bytes: (0..<(640 * 480)).map { UInt8($0 % 640 * 255 / 639) })
        let thumbnail = try JPEGImage.thumbnail(of: JPEGImage.encode(gray))
        let info = try JPEGImage.check(thumbnail)
        #expect(info.isGray && info.longestSide == 160)
    }
}
