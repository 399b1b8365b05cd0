import TestSupport
import Foundation
import Testing
@testable import RecipeImages

@Suite("Photo.check refuses what is not a complete JPEG or PNG")
struct RefusalTests {
    private func problem(_ data: Data) -> PhotoProblem? {
        do {
            _ = try Photo.check(data)
            return nil
        } catch {
            return error
        }
    }

    private func isDamaged(_ problem: PhotoProblem?, _ format: PhotoFormat) -> Bool {
        if case .damaged(format, _)? = problem { return true }
        return false
    }

    @Test func truncatedJPEGAtHalf() throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg")
        let cut = jpeg.prefix(jpeg.count / 2)
        #expect(isDamaged(problem(cut), .jpeg))
        #expect(throws: PhotoProblem.self) { try Photo.thumbnail(of: cut) }
    }

    @Test func truncatedJPEGJustBeforeEOI() throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg")
        #expect(jpeg.suffix(2) == Data([0xFF, 0xD9]))
        let cut = jpeg.dropLast(2)
        #expect(isDamaged(problem(cut), .jpeg))
        #expect(throws: PhotoProblem.self) { try Photo.thumbnail(of: cut) }
    }

    @Test func truncatedPNGInsideIDAT() throws {
        let png = try Fixture.data("noise.png")
        let idat = try #require(PNGBytes.firstIDAT(in: png))
        #expect(idat.count > 1000)
        let cut = png.prefix(idat.lowerBound + idat.count / 2)
        #expect(isDamaged(problem(cut), .png))
        #expect(throws: PhotoProblem.self) { try Photo.thumbnail(of: cut) }
    }

    @Test(arguments: Fixture.pngNames)
    func pngWithoutIEND(name: String) throws {
        let png = try Fixture.data(name)
        let cut = png.dropLast(12) // the whole IEND chunk
        #expect(isDamaged(problem(cut), .png))
        #expect(throws: PhotoProblem.self) { try Photo.thumbnail(of: cut) }
    }

    @Test func corruptIDATChecksum() throws {
        var bytes = [UInt8](try Fixture.data("noise.png"))
        let idat = try #require(PNGBytes.firstIDAT(in: Data(bytes)))
        bytes[idat.upperBound] ^= 0xFF // first CRC byte
        #expect(isDamaged(problem(Data(bytes)), .png))
    }

    @Test func empty() {
        #expect(problem(Data()) == .empty)
        #expect(throws: PhotoProblem.empty) { try Photo.thumbnail(of: Data()) }
    }

    @Test func tooLarge() {
        let big = Data(count: Photo.maximumBytes + 1)
        #expect(problem(big) == .tooLarge(bytes: 10_000_001, limit: 10_000_000))
        #expect(throws: PhotoProblem.tooLarge(bytes: 10_000_001, limit: 10_000_000)) { try Photo.thumbnail(of: big) }
    }

    @Test func randomBytes() {
        var generator = SeededGenerator(seed: 42)
        var bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = 0x00
        #expect(problem(Data(bytes)) == .notJPEGOrPNG(detected: nil))
    }

    @Test(arguments: [
        ("GIF89a\u{1}\u{0}\u{1}\u{0}\u{80}\u{0}\u{0}", "GIF"),
        ("RIFF\u{24}\u{0}\u{0}\u{0}WEBPVP8 ", "WebP"),
        ("\u{0}\u{0}\u{0}\u{18}ftypheic\u{0}\u{0}\u{0}\u{0}", "HEIC"),
        ("%PDF-1.7\n%âãÏÓ\n", "PDF"),
        ("Pasta, eggs, pecorino and guanciale.\nServes 4.\n", "text"),
    ])
    func otherFormats(content: String, detected: String) {
        #expect(problem(Data(content.utf8)) == .notJPEGOrPNG(detected: detected))
    }

    @Test func textRenamedToJPG() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("recipe-\(UUID().uuidString).jpg")
        try Data("This is not a photo, just a recipe.\r\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(problem(try Data(contentsOf: url)) == .notJPEGOrPNG(detected: "text"))
    }

    @Test func jpegSignatureAlone() {
        #expect(isDamaged(problem(Data([0xFF, 0xD8])), .jpeg))
        #expect(isDamaged(problem(Data([0xFF, 0xD8, 0xFF])), .jpeg))
        #expect(isDamaged(problem(Data([0x89, 0x50, 0x4E, 0x47])), .png))
    }

    @Test func pngHeaderClaimingHugeSize() throws {
        let png = try Fixture.data("huge-header.png")
        #expect(png.count < 100)
        #expect(problem(png) == .tooManyPixels(width: 100_000, height: 100_000, limit: 40_000_000))
        #expect(throws: PhotoProblem.tooManyPixels(width: 100_000, height: 100_000, limit: 40_000_000)) {
            try Photo.thumbnail(of: png)
        }
    }

    @Test func jpegHeaderClaimingHugeSize() throws {
        let jpeg = JPEGBytes.replacingSize(of: try Fixture.data("classics-carbonara.jpg"), width: 65_000, height: 65_000)
        #expect(problem(jpeg) == .tooManyPixels(width: 65_000, height: 65_000, limit: 40_000_000))
        #expect(throws: PhotoProblem.tooManyPixels(width: 65_000, height: 65_000, limit: 40_000_000)) {
            try Photo.thumbnail(of: jpeg)
        }
    }

    @Test func descriptionsTellTheCauseAndWhatToDo() {
        #expect(PhotoProblem.tooLarge(bytes: 12_000_000, limit: 10_000_000).description
            == "the photo is 12000000 bytes; at most 10000000 are accepted — choose a smaller photo")
        let gif = PhotoProblem.notJPEGOrPNG(detected: "GIF").description
        #expect(gif.contains("GIF") && gif.contains("only JPEG and PNG photos are accepted"))
        #expect(PhotoProblem.notJPEGOrPNG(detected: nil).description.contains("only JPEG and PNG photos are accepted"))
        #expect(PhotoProblem.notJPEGOrPNG(detected: "text").description.contains("only JPEG and PNG photos are accepted"))
        let damaged = PhotoProblem.damaged(format: .png, reason: "the PNG data ends early").description
        #expect(damaged.contains("PNG") && damaged.contains("the PNG data ends early") && damaged.contains("upload it again"))
        #expect(PhotoProblem.tooManyPixels(width: 100_000, height: 100_000, limit: 40_000_000).description
            .contains("100000×100000"))
        #expect(PhotoProblem.empty.description.contains("empty"))
    }
}
