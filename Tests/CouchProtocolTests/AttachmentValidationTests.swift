import CouchProtocol
import DocumentStore
import Foundation
import Testing
import DocumentFormat

/// The attachment checks the server and the replicator share.
@Suite struct AttachmentValidationTests {
    @Test func bytesMustMatchTheirDeclaredLengthAndDigest() throws {
        let bytes = Data("hello".utf8)
        let digest = RevisionHasher.attachmentDigest(bytes)
        try AttachmentValidation.checkBytes(bytes, length: 5, digest: digest, of: "a")
        try AttachmentValidation.checkBytes(bytes, length: nil, digest: nil, of: "a")
        #expect(throws: CouchError.self) { try AttachmentValidation.checkBytes(bytes, length: 999_999, digest: nil, of: "a") }
        #expect(throws: CouchError.self) { try AttachmentValidation.checkBytes(bytes, length: nil, digest: "md5-AAAAAAAAAAAAAAAAAAAAAA==", of: "a") }
    }

    @Test func stubsMustMatchTheStoredLength() throws {
        try AttachmentValidation.checkStub(length: 5, storedLength: 5, of: "a")
        try AttachmentValidation.checkStub(length: nil, storedLength: 5, of: "a")
        try AttachmentValidation.checkStub(length: 5, storedLength: nil, of: "a")
        #expect(throws: CouchError.self) { try AttachmentValidation.checkStub(length: 999_999, storedLength: 5, of: "a") }
    }

    @Test func controlCharactersAreRefusedInNamesAndContentTypes() throws {
        try AttachmentValidation.checkName("photo é.jpg")
        try AttachmentValidation.checkContentType("image/jpeg; charset=binary", of: "a")
        for bad in ["a\r\nb", "a\nb", "a\u{0}b", "a\u{7F}b", "a\tb"] {
            #expect(throws: CouchError.self) { try AttachmentValidation.checkName(bad) }
            #expect(throws: CouchError.self) { try AttachmentValidation.checkContentType(bad, of: "a") }
        }
        // A document read by the replicator goes through the same checks.
        let entry: JSONValue = ["content_type": "text/plain", "data": .string(Data("hi".utf8).base64EncodedString())]
        #expect(throws: CouchError.self) { try CouchAttachment(name: "x\r\nInjected: 1", json: entry) }
        #expect(throws: CouchError.self) {
            try CouchAttachment(name: "x", json: ["content_type": "text/plain", "data": .string(Data("hi".utf8).base64EncodedString()), "length": 3])
        }
    }

    @Test("Inline base64 may hold white space between its characters, and nothing else that is not base64")
    func base64WhiteSpace() throws {
        let bytes = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let plain = bytes.base64EncodedString()
        let wrapped = bytes.base64EncodedString(options: [.lineLength64Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        for text in [plain, wrapped, " " + plain + "\t\n"] {
            guard case .data(_, let data, _) = try CouchAttachment(name: "a", json: ["content_type": "application/octet-stream", "data": .string(text)]) else {
                Issue.record("not read as inline data")
                continue
            }
            #expect(data == bytes)
        }
        #expect(throws: CouchError.self) {
            try CouchAttachment(name: "a", json: ["content_type": "text/plain", "data": .string(plain + "!")])
        }
    }
}
