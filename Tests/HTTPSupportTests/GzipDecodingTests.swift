import Foundation
import HTTPSupport
import Testing

/// gzip bodies inflated within a limit, and every failure told apart.
@Suite struct GzipDecodingTests {
    /// "hello, gzip\n" compressed by `gzip -n`.
    static let gzipped = Data([
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0xD7,
        0x51, 0x48, 0xAF, 0xCA, 0x2C, 0xE0, 0x02, 0x00, 0x86, 0x1F, 0x82, 0xA4, 0x0C, 0x00, 0x00, 0x00,
    ])

    @Test func inflates() throws {
        #expect(try GzipDecoding.decode(Self.gzipped) == Data("hello, gzip\n".utf8))
    }

    @Test func refusesACutStream() {
        #expect {
            try GzipDecoding.decode(Self.gzipped.prefix(20))
        } throws: { error in
            if case .incomplete = error as? GzipDecodingError { true } else { false }
        }
    }

    @Test func refusesWhatInflatesPastTheLimit() {
        #expect(throws: GzipDecodingError.tooLong(limit: 5)) { try GzipDecoding.decode(Self.gzipped, limit: 5) }
    }
}
