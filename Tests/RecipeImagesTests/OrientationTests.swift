import Foundation
import Testing
@testable import RecipeImages

@Suite("EXIF orientation")
struct OrientationTests {
    /// A 3x2 image whose pixels are numbered 0...5 in the red channel:
    /// 0 1 2
    /// 3 4 5
    private let numbered = RGBImage(width: 3, height: 2, pixels: (0..<6).flatMap { [UInt8($0), 0, 0] })

    private func rows(_ image: RGBImage) -> [[UInt8]] {
        (0..<image.height).map { y in (0..<image.width).map { x in image.pixel(x: x, y: y).red } }
    }

    @Test func allEightOrientationsMoveThePixels() {
        #expect(rows(numbered.oriented(.normal)) == [[0, 1, 2], [3, 4, 5]])
        #expect(rows(numbered.oriented(.mirrored)) == [[2, 1, 0], [5, 4, 3]])
        #expect(rows(numbered.oriented(.rotated180)) == [[5, 4, 3], [2, 1, 0]])
        #expect(rows(numbered.oriented(.flippedVertically)) == [[3, 4, 5], [0, 1, 2]])
        #expect(rows(numbered.oriented(.transposed)) == [[0, 3], [1, 4], [2, 5]])
        #expect(rows(numbered.oriented(.rotated90Clockwise)) == [[3, 0], [4, 1], [5, 2]])
        #expect(rows(numbered.oriented(.transversed)) == [[5, 2], [4, 1], [3, 0]])
        #expect(rows(numbered.oriented(.rotated90CounterClockwise)) == [[2, 5], [1, 4], [0, 3]])
    }

    @Test(arguments: [false, true], 1...8)
    func readsTheTagInBothByteOrders(bigEndian: Bool, value: Int) throws {
        let jpeg = JPEGBytes.inserting(JPEGBytes.exifSegment(orientation: UInt16(value), bigEndian: bigEndian),
                                       into: try Fixture.data("classics-carbonara.jpg"))
        let orientation = jpeg.withUnsafeBytes { ExifOrientation.read(fromJPEG: $0) }
        #expect(orientation.rawValue == value)
        let info = try Photo.check(jpeg)
        #expect(info == PhotoInfo(format: .jpeg, width: value >= 5 ? 240 : 320, height: value >= 5 ? 320 : 240))
    }

    @Test func malformedExifCountsAsNormal() throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg")
        let good = JPEGBytes.exifSegment(orientation: 6, bigEndian: false)
        var variants: [[UInt8]] = []
        var badOrder = good; badOrder[10] = 0x58; variants.append(badOrder)            // not II/MM
        var farIFD = good; farIFD[14] = 0xFF; farIFD[15] = 0xFF; variants.append(farIFD) // IFD offset out of range
        // Byte offsets in the segment: TIFF at 10, IFD0 at 18, entry 1 at 20, entry 2 (orientation) at 32.
        var oneEntry = good; oneEntry[18] = 1; variants.append(oneEntry)                // orientation not listed
        var endless = good; endless[18] = 0xFF; endless[19] = 0xFF; endless[32] = 0x13; variants.append(endless)
        var badValue = good; badValue[40] = 9; variants.append(badValue)                // orientation 9
        var wrongType = good; wrongType[34] = 4; variants.append(wrongType)             // LONG, not SHORT
        var otherTag = good; otherTag[32] = 0x13; variants.append(otherTag)             // tag 0x0113
        for segment in variants {
            let data = JPEGBytes.inserting(segment, into: jpeg)
            #expect(data.withUnsafeBytes { ExifOrientation.read(fromJPEG: $0) } == .normal)
            #expect(try Photo.check(data) == PhotoInfo(format: .jpeg, width: 320, height: 240))
        }
        // A segment length running past the end of the file, and a cut-off Exif block.
        let overlong: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D]
        #expect(overlong.withUnsafeBytes { ExifOrientation.read(fromJPEG: $0) } == .normal)
        for cut in 0..<good.count {
            let bytes: [UInt8] = [0xFF, 0xD8] + good.prefix(cut)
            _ = bytes.withUnsafeBytes { ExifOrientation.read(fromJPEG: $0) }
        }
        // Sanity check that the unmodified segment is read.
        #expect(JPEGBytes.inserting(good, into: jpeg).withUnsafeBytes { ExifOrientation.read(fromJPEG: $0) } == .rotated90Clockwise)
    }

    @Test func orientation6MakesALandscapePhotoPortrait() throws {
        let photo = try JPEGBytes.redLeftBlueRight(width: 40, height: 20)
        let rotated = JPEGBytes.inserting(JPEGBytes.exifSegment(orientation: 6, bigEndian: false), into: photo)
        #expect(try Photo.check(rotated) == PhotoInfo(format: .jpeg, width: 20, height: 40))
        let thumbnail = try Photo.thumbnail(of: rotated, maxSide: 320)
        let info = try Photo.check(thumbnail)
        #expect(info.height > info.width)
        #expect(info == PhotoInfo(format: .jpeg, width: 20, height: 40))
        // Rotating 90° clockwise puts the left (red) half on top.
        let image = try Photo.uprightPixels(of: rotated, maxSide: 320)
        #expect(isClose(image.pixel(x: 10, y: 5), (255, 0, 0), tolerance: 40))
        #expect(isClose(image.pixel(x: 10, y: 34), (0, 0, 255), tolerance: 40))
    }

    @Test func orientation6OnARealPhotoThumbnail() throws {
        let rotated = JPEGBytes.inserting(JPEGBytes.exifSegment(orientation: 6, bigEndian: true),
                                          into: try Fixture.data("classics-carbonara.jpg"))
        let info = try Photo.check(Photo.thumbnail(of: rotated, maxSide: 160))
        #expect(info == PhotoInfo(format: .jpeg, width: 120, height: 160))
    }

    @Test func orientation3TurnsThePhotoUpsideDown() throws {
        let photo = try JPEGBytes.redLeftBlueRight(width: 40, height: 20)
        let rotated = JPEGBytes.inserting(JPEGBytes.exifSegment(orientation: 3, bigEndian: true), into: photo)
        #expect(try Photo.check(rotated) == PhotoInfo(format: .jpeg, width: 40, height: 20))
        let image = try Photo.uprightPixels(of: rotated, maxSide: 320)
        #expect(image.width == 40 && image.height == 20)
        #expect(isClose(image.pixel(x: 5, y: 10), (0, 0, 255), tolerance: 40))
        #expect(isClose(image.pixel(x: 34, y: 10), (255, 0, 0), tolerance: 40))
        let plain = try Photo.uprightPixels(of: photo, maxSide: 320)
        #expect(isClose(plain.pixel(x: 5, y: 10), (255, 0, 0), tolerance: 40))
    }

    @Test func orientation8PutsTheRightHalfOnTop() throws {
        let photo = try JPEGBytes.redLeftBlueRight(width: 40, height: 20)
        let rotated = JPEGBytes.inserting(JPEGBytes.exifSegment(orientation: 8, bigEndian: false), into: photo)
        let image = try Photo.uprightPixels(of: rotated, maxSide: 320)
        #expect(image.width == 20 && image.height == 40)
        #expect(isClose(image.pixel(x: 10, y: 5), (0, 0, 255), tolerance: 40))
        #expect(isClose(image.pixel(x: 10, y: 34), (255, 0, 0), tolerance: 40))
    }
}
