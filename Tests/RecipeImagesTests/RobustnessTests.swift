import TestSupport
import Foundation
import Testing
@testable import RecipeImages

@Suite("Concurrency and fuzzing")
struct RobustnessTests {
    @Test func sixteenThumbnailsAtOnceAreIdentical() async throws {
        let jpeg = try Fixture.data("classics-carbonara.jpg")
        let png = try Fixture.data("noise.png")
        let results = try await withThrowingTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<16 {
                group.addTask {
                    (index, try Photo.thumbnail(of: index.isMultiple(of: 2) ? jpeg : png, maxSide: 100))
                }
            }
            var collected: [Int: Data] = [:]
            for try await (index, data) in group { collected[index] = data }
            return collected
        }
        #expect(results.count == 16)
        let expectedJPEG = try Photo.thumbnail(of: jpeg, maxSide: 100)
        let expectedPNG = try Photo.thumbnail(of: png, maxSide: 100)
        #expect(expectedJPEG != expectedPNG)
        for (index, data) in results {
            #expect(data == (index.isMultiple(of: 2) ? expectedJPEG : expectedPNG))
        }
    }

    @Test(arguments: ["classics-carbonara.jpg", "progressive.jpg", "noise.png", "interlaced.png", "palette.png"])
    func mutationsAndTruncationsNeverCrash(name: String) throws {
        let original = [UInt8](try Fixture.data(name))
        var generator = SeededGenerator(seed: UInt64(name.utf8.count) &* 7919 &+ UInt64(original.count))
        var refused = 0
        for round in 0..<300 {
            var bytes = original
            let truncated = round.isMultiple(of: 3)
            if truncated {
                bytes.removeLast(Int.random(in: 1..<(bytes.count - 1), using: &generator))
            } else {
                for _ in 0..<Int.random(in: 1...8, using: &generator) {
                    let index = Int.random(in: 0..<bytes.count, using: &generator)
                    switch Int.random(in: 0..<3, using: &generator) {
                    case 0: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                    case 1: bytes[index] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
                    default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: index)
                    }
                }
            }
            let data = Data(bytes)
            var checked = false
            do {
                let info = try Photo.check(data)
                checked = true
                #expect(info.width > 0 && info.height > 0)
            } catch {
                refused += 1
            }
            // Every strict prefix of the file lacks at least the end marker, so it must be refused.
            if truncated { #expect(!checked, "round \(round): a truncated file was accepted") }
            if let thumbnail = try? Photo.thumbnail(of: data, maxSide: 64) {
                let info = try Photo.check(thumbnail)
                #expect(max(info.width, info.height) <= 64)
            }
        }
        #expect(refused >= 100)
    }
}
