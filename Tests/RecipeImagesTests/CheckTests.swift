import Foundation
import Testing
@testable import RecipeImages

@Suite("Photo.check accepts real photos")
struct CheckTests {
    @Test func realJPEGs() throws {
        #expect(try Photo.check(Fixture.data("classics-carbonara.jpg")) == PhotoInfo(format: .jpeg, width: 320, height: 240))
        #expect(try Photo.check(Fixture.data("classics-deviled-eggs-thumb.jpg")) == PhotoInfo(format: .jpeg, width: 88, height: 66))
    }

    @Test(arguments: [
        ("rgba-alpha.png", 30, 20),
        ("palette.png", 24, 16),
        ("rgb16.png", 20, 10),
        ("gray.png", 32, 24),
        ("interlaced.png", 33, 17),
        ("noise.png", 64, 48),
    ])
    func generatedPNGs(name: String, width: Int, height: Int) throws {
        #expect(try Photo.check(Fixture.data(name)) == PhotoInfo(format: .png, width: width, height: height))
    }

    @Test func trailingBytesAfterTheImageAreTolerated() throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg") + Data("trailing junk".utf8)
        #expect(try Photo.check(jpeg).format == .jpeg)
        let png = try Fixture.data("gray.png") + Data([0, 1, 2, 3])
        #expect(try Photo.check(png).format == .png)
    }

    @Test func worksOnDataSlices() throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg")
        let padded = Data([1, 2, 3]) + jpeg
        let slice = padded[3...]
        #expect(slice.startIndex == 3)
        #expect(try Photo.check(slice) == PhotoInfo(format: .jpeg, width: 320, height: 240))
    }

    @Test func formatMIMETypes() {
        #expect(PhotoFormat.jpeg.mimeType == "image/jpeg")
        #expect(PhotoFormat.png.mimeType == "image/png")
    }
}
