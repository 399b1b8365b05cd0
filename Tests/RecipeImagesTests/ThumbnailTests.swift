import Foundation
import Testing
@testable import RecipeImages

@Suite("Photo.thumbnail makes small upright JPEGs")
struct ThumbnailTests {
    @Test(arguments: [320, 200, 160, 100, 33, 8, 1])
    func jpegFitsAndKeepsAspectRatio(maxSide: Int) throws {
        let thumbnail = try Photo.thumbnail(of: Fixture.data("classics-carbonara.jpg"), maxSide: maxSide)
        #expect(thumbnail.prefix(2) == Data([0xFF, 0xD8]))
        let info = try Photo.check(thumbnail)
        #expect(info.format == .jpeg)
        #expect(info.width == min(maxSide, 320))
        #expect(max(info.width, info.height) <= maxSide)
        let expectedHeight = Double(info.width) * 240 / 320
        #expect(abs(Double(info.height) - expectedHeight) <= 1, "height \(info.height) for width \(info.width)")
    }

    @Test(arguments: Fixture.pngNames)
    func pngThumbnailIsNotUpscaled(name: String) throws {
        let png = try Fixture.data(name)
        let original = try Photo.check(png)
        let thumbnail = try Photo.thumbnail(of: png, maxSide: 320)
        #expect(thumbnail.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        let info = try Photo.check(thumbnail)
        #expect(info == PhotoInfo(format: .jpeg, width: original.width, height: original.height))
    }

    @Test func pngThumbnailShrinks() throws {
        let info = try Photo.check(Photo.thumbnail(of: Fixture.data("noise.png"), maxSide: 16))
        #expect(info == PhotoInfo(format: .jpeg, width: 16, height: 12))
    }

    @Test func outputIsBaselineRGBWithoutExif() throws {
        let withExif = JPEGBytes.inserting(JPEGBytes.exifSegment(orientation: 6, bigEndian: true),
                                           into: try Fixture.data("classics-carbonara.jpg"))
        let thumbnail = try Photo.thumbnail(of: withExif, maxSide: 100, quality: 70)
        let markers = JPEGBytes.markers(of: thumbnail)
        #expect(markers.contains(0xC0), "baseline SOF0 expected, got \(markers)")
        #expect(!markers.contains(0xC2) && !markers.contains(0xC1))
        #expect(!markers.contains(0xE1), "no EXIF/APP1 in the thumbnail")
        #expect(markers.last == 0xDA)
        // SOF0 declares three components (colour).
        let bytes = [UInt8](thumbnail)
        let sof = try #require(bytes.indices.dropLast(10).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        #expect(bytes[sof + 9] == 3)
    }

    @Test func outOfRangeArgumentsAreClamped() throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg")
        #expect(try Photo.check(Photo.thumbnail(of: jpeg, maxSide: 0)) == PhotoInfo(format: .jpeg, width: 1, height: 1))
        #expect(try Photo.check(Photo.thumbnail(of: jpeg, maxSide: -5, quality: 500)) == PhotoInfo(format: .jpeg, width: 1, height: 1))
        #expect(try Photo.check(Photo.thumbnail(of: jpeg, maxSide: .max, quality: -3)) == PhotoInfo(format: .jpeg, width: 320, height: 240))
    }

    @Test func qualityChangesTheOutput() throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg")
        let low = try Photo.thumbnail(of: jpeg, quality: 20)
        let high = try Photo.thumbnail(of: jpeg, quality: 95)
        #expect(low.count < high.count)
    }

    @Test func alphaIsCompositedOnWhite() throws {
        let image = try Photo.uprightPixels(of: Fixture.data("rgba-alpha.png"), maxSide: 320)
        #expect(image.width == 30 && image.height == 20)
        #expect(isClose(image.pixel(x: 0, y: 0), (255, 0, 0)))
        #expect(isClose(image.pixel(x: 14, y: 19), (255, 0, 0)))
        #expect(isClose(image.pixel(x: 15, y: 0), (255, 255, 255)))
        #expect(isClose(image.pixel(x: 29, y: 19), (255, 255, 255)))
    }

    @Test func paletteWithTransparency() throws {
        let image = try Photo.uprightPixels(of: Fixture.data("palette.png"), maxSide: 320)
        #expect(isClose(image.pixel(x: 0, y: 0), (0, 200, 0)))
        #expect(isClose(image.pixel(x: 23, y: 15), (255, 255, 255)))
    }

    @Test func sixteenBitAndGrayscale() throws {
        let rgb16 = try Photo.uprightPixels(of: Fixture.data("rgb16.png"), maxSide: 320)
        #expect(isClose(rgb16.pixel(x: 5, y: 5), (128, 64, 192)))
        let gray = try Photo.uprightPixels(of: Fixture.data("gray.png"), maxSide: 320)
        #expect(isClose(gray.pixel(x: 3, y: 0), (0, 0, 0)))
        #expect(isClose(gray.pixel(x: 3, y: 10), (100, 100, 100)))
        #expect(isClose(gray.pixel(x: 31, y: 23), (230, 230, 230)))
    }

    @Test func interlacedPNGIsAssembledCorrectly() throws {
        let image = try Photo.uprightPixels(of: Fixture.data("interlaced.png"), maxSide: 320)
        #expect(image.width == 33 && image.height == 17)
        for y in 0..<17 {
            #expect(isClose(image.pixel(x: 0, y: y), (255, 0, 0)))
            #expect(isClose(image.pixel(x: 15, y: y), (255, 0, 0)))
            #expect(isClose(image.pixel(x: 16, y: y), (0, 0, 255)))
            #expect(isClose(image.pixel(x: 32, y: y), (0, 0, 255)))
        }
    }

    @Test func areaAverageBlendsNeighbours() throws {
        // 33x17 halves red/blue shrunk to 2 columns: each column averages mostly one colour.
        let image = try Photo.uprightPixels(of: Fixture.data("interlaced.png"), maxSide: 2)
        #expect(image.width == 2 && image.height == 1)
        #expect(image.pixel(x: 0, y: 0).red > 200 && image.pixel(x: 0, y: 0).blue < 60)
        #expect(image.pixel(x: 1, y: 0).blue > 200 && image.pixel(x: 1, y: 0).red < 60)
    }

    @Test func largeJPEGUsesScaledDecoding() throws {
        // A 2000x1500 JPEG (made by the module's encoder) shrinks to 320x240.
        let width = 2000, height = 1500
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(x * 255 / width); pixels[i + 1] = UInt8(y * 255 / height); pixels[i + 2] = 128
            }
        }
        let big = try PhotoCodec.encodeJPEG(RGBImage(width: width, height: height, pixels: pixels), quality: 80)
        #expect(try Photo.check(big) == PhotoInfo(format: .jpeg, width: 2000, height: 1500))
        let image = try Photo.uprightPixels(of: big, maxSide: 320)
        #expect(image.width == 320 && image.height == 240)
        #expect(isClose(image.pixel(x: 0, y: 0), (0, 0, 128), tolerance: 12))
        #expect(isClose(image.pixel(x: 319, y: 239), (254, 254, 128), tolerance: 12))
    }
}
