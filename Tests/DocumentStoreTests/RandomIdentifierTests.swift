import Foundation
import Testing
@testable import DocumentStore
import DocumentFormat

@Suite struct RandomIdentifierTests {
    @Test func uuidStringsAreVersion4UUIDsFoundationReads() throws {
        var seen = Set<String>()
        for _ in 0..<2_000 {
            let text = RandomIdentifier.uuidString()
            let parsed = try #require(UUID(uuidString: text))
            #expect(parsed.uuidString == text)  // canonical, uppercase
            let bytes = withUnsafeBytes(of: parsed.uuid) { Array($0) }
            #expect(bytes[6] >> 4 == 4)          // version 4
            #expect(bytes[8] >> 6 == 0b10)       // RFC 4122 variant
            seen.insert(text)
        }
        #expect(seen.count == 2_000)
    }

    @Test func compactHexIsThirtyTwoLowercaseDigits() {
        let text = RandomIdentifier.compactHex()
        #expect(text.count == 32)
        #expect(text.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(text != RandomIdentifier.compactHex())
    }
}
