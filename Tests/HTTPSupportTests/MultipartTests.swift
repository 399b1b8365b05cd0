import HTTPSupport
import Foundation
import Testing

/// The one multipart reader and writer both sides use.
@Suite("Multipart bodies")
struct MultipartTests {
    @Test("Bodies split into parts, with CRLF or LF line ends and binary content")
    func splitsParts() throws {
        let binary = Data([0xFF, 0x00, 0x0D, 0x0A, 0x2D, 0x2D, 0x41])
        var body = Data("--XYZ\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n--XYZ\r\nContent-Disposition: attachment; filename=\"f.bin\"\r\n\r\n".utf8)
        body.append(binary)
        body.append(Data("\r\n--XYZ--\r\n".utf8))
        let parts = try MultipartBody(data: body, boundary: "XYZ").parts
        #expect(parts.count == 2)
        #expect(parts[0].contentType == "application/json")
        #expect(parts[0].body == Data("{\"a\":1}".utf8))
        #expect(parts[1].fileName == "f.bin")
        #expect(parts[1].body == binary)
        let lf = try MultipartBody(data: Data("--B\nContent-Type: text/plain\n\nhi\n--B--".utf8), boundary: "B").parts
        #expect(lf.map(\.body) == [Data("hi".utf8)])
        #expect(throws: MultipartFormatError.self) { try MultipartBody(data: Data("--B\r\n\r\nno end".utf8), boundary: "B") }
    }

    @Test("A part's Content-Length is honoured: bytes that look like a boundary stay in the part")
    func contentLengthHonoured() throws {
        let tricky = Data("a\r\n--B\r\nnot a part".utf8)
        var body = Data("--B\r\nContent-Length: \(tricky.count)\r\n\r\n".utf8)
        body.append(tricky)
        body.append(Data("\r\n--B--".utf8))
        let parts = try MultipartBody(data: body, contentType: "multipart/related; boundary=B").parts
        #expect(parts.count == 1)
        #expect(parts[0].body == tricky)
    }

    @Test("A part whose bytes do not match its Content-Length is refused", arguments: [
        "--x\r\nContent-Length: 2\r\n\r\nbody\r\n--x--",
        "--x\r\nContent-Length: 90\r\n\r\nbody\r\n--x--",
        "--x\r\nContent-Length: -1\r\n\r\nbody\r\n--x--",
    ])
    func contentLengthMismatchRefused(text: String) {
        #expect(throws: MultipartFormatError.self) { try MultipartBody(data: Data(text.utf8), contentType: "multipart/mixed; boundary=x") }
    }

    @Test("Quoted header parameters are unquoted and unescaped, with ; and = kept inside quotes")
    func headerParameters() {
        let header = #"attachment; filename="a \"quoted\"; name=x.txt"; size=12"#
        #expect(HeaderParameters.value(of: "filename", in: header) == #"a "quoted"; name=x.txt"#)
        #expect(HeaderParameters.value(of: "SIZE", in: header) == "12")
        #expect(HeaderParameters.value(of: "missing", in: header) == nil)
        #expect(HeaderParameters.value(of: "boundary", in: "multipart/mixed; boundary=\"b\\\\1\"") == "b\\1")
        #expect(HeaderParameters.mediaType(of: " Multipart/Related ; boundary=x") == "multipart/related")
        #expect(HeaderParameters.mediaType(of: "") == "")
    }

    @Test("What the writer writes, the reader reads back: bytes, headers and awkward file names")
    func writerRoundTrip() throws {
        let binary = Data([0xFF, 0x00, 0x0D, 0x0A, 0x2D, 0x2D, 0x41])
        let name = #"dir/"odd"; name\.bin"#
        var writer = MultipartWriter(output: Data(), boundary: "a7f3e9b1c2d4")
        try writer.appendPart(headers: [("Content-Type", "application/json")], body: Data("{}".utf8))
        try writer.appendPart(headers: MultipartWriter<Data>.attachmentHeaders(name: name, contentType: "image/png", length: binary.count),
                              body: binary)
        let contentType = writer.contentType("related")
        let written = try writer.finish()
        let parts = try MultipartBody(data: written, contentType: contentType).parts
        #expect(parts.map(\.body) == [Data("{}".utf8), binary])
        #expect(parts[1].fileName == name)
        #expect(parts[1].mediaType == "image/png")
        #expect(parts[0].mediaType == "application/json")
    }

    @Test("Malformed bodies are typed errors", arguments: [
        ("no boundary", "multipart/mixed", "--x\r\n\r\nbody\r\n--x--"),
        ("not multipart", "application/json; boundary=x", "--x\r\n\r\nbody\r\n--x--"),
        ("no opening boundary", "multipart/mixed; boundary=x", "just text"),
        ("no closing boundary", "multipart/mixed; boundary=x", "--x\r\nContent-Type: text/plain\r\n\r\nbody"),
        ("headers cut short", "multipart/mixed; boundary=x", "--x\r\nContent-Type: text/pl"),
        ("header without colon", "multipart/mixed; boundary=x", "--x\r\nnonsense\r\n\r\nbody\r\n--x--"),
    ])
    func malformed(name: String, contentType: String, text: String) {
        #expect(throws: MultipartFormatError.self, "\(name)") { try MultipartBody(data: Data(text.utf8), contentType: contentType) }
    }
}
