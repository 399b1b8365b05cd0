import Foundation
import Testing
@testable import RecipeImages

/// progressive.jpg, gray.jpg and cmyk.jpg were written with libjpeg itself (progressive through
/// jpeg_simple_progression; CMYK with an Adobe marker and inverted values, as Photoshop stores it:
/// left half yellow, right half cyan).
@Suite("Progressive, grayscale and CMYK JPEGs")
struct JPEGVariantTests {
    @Test(arguments: [("progressive.jpg", 48, 32), ("gray.jpg", 40, 30), ("cmyk.jpg", 32, 16)])
    func checkAndThumbnail(name: String, width: Int, height: Int) throws {
        let jpeg = try Fixture.data(name)
        #expect(try Photo.check(jpeg) == PhotoInfo(format: .jpeg, width: width, height: height))
        let thumbnail = try Photo.thumbnail(of: jpeg, maxSide: 24)
        let info = try Photo.check(thumbnail)
        #expect(info.width == 24)
        #expect(abs(Double(info.height) - 24 * Double(height) / Double(width)) <= 1)
    }

    @Test(arguments: ["progressive.jpg", "gray.jpg", "cmyk.jpg"])
    func truncatedVariantsAreDamaged(name: String) throws {
        let jpeg = try Fixture.data(name)
        for cut in [jpeg.count / 2, jpeg.count - 2] {
            #expect(throws: PhotoProblem.self) { try Photo.check(jpeg.prefix(cut)) }
            #expect(throws: PhotoProblem.self) { try Photo.thumbnail(of: jpeg.prefix(cut)) }
        }
    }

    @Test func cmykBecomesRGB() throws {
        let image = try Photo.uprightPixels(of: Fixture.data("cmyk.jpg"), maxSide: 320)
        #expect(isClose(image.pixel(x: 2, y: 8), (255, 255, 0), tolerance: 30))
        #expect(isClose(image.pixel(x: 29, y: 8), (0, 255, 255), tolerance: 30))
    }

    @Test func grayBecomesNeutralRGB() throws {
        let image = try Photo.uprightPixels(of: Fixture.data("gray.jpg"), maxSide: 320)
        for x in [0, 10, 20, 39] {
            let pixel = image.pixel(x: x, y: 15)
            #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
        }
    }
}
