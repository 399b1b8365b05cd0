import InteropSupport
import CouchProtocol
import DocumentStore
import Foundation
import Testing
@testable import CouchServer
import DocumentFormat

/// The server's own parsers: URL routes, database names, sequences (multipart bodies are
/// CouchProtocol's, tested there).
@Suite("CouchServer parsing")
struct ParsingTests {
    @Test("Paths route as CouchDB routes them, with encoded slashes kept inside names")
    func routes() {
        #expect(CouchRoute(path: "/") == .root)
        #expect(CouchRoute(path: "/_all_dbs") == .serverEndpoint("_all_dbs"))
        #expect(CouchRoute(path: "/src/") == .database("src"))
        #expect(CouchRoute(path: "/a%2Fb") == .database("a/b"))
        #expect(CouchRoute(path: "/src/_changes") == .databaseEndpoint(db: "src", endpoint: "_changes"))
        #expect(CouchRoute(path: "/src/_local/abc") == .localDocument(db: "src", id: "abc"))
        #expect(CouchRoute(path: "/src/_local%2Fabc") == .localDocument(db: "src", id: "abc"))
        #expect(CouchRoute(path: "/src/doc%2Fwith%2Fslashes") == .document(db: "src", id: "doc/with/slashes"))
        #expect(CouchRoute(path: "/src/doc/dir/file.txt") == .attachment(db: "src", id: "doc", name: "dir/file.txt"))
        #expect(CouchRoute(path: "/src/_design/app") == .document(db: "src", id: "_design/app"))
        #expect(CouchRoute(path: "/src/%ZZ") == nil)
    }

    @Test("Database names follow CouchDB's rule and map to flat file names and back")
    func databaseNames() throws {
        for good in ["a", "recipes", "a-b_c$(d)+e/f", "tgt_push2"] {
            let name = try DatabaseName(validating: good)
            #expect(!name.fileName.contains("/"))
            #expect(DatabaseName(fileName: name.fileName)?.name == good)
        }
        for bad in ["", "A", "1a", "_a", "a b", "é", "a.b"] {
            #expect(throws: CouchError.self) { try DatabaseName(validating: bad) }
        }
        #expect(DatabaseName(fileName: "notes.txt") == nil)
    }

    @Test("since accepts numbers, now, quoted numbers and this server's N-suffixed sequences")
    func sequences() throws {
        #expect(try ChangesRequest.parseSequence("0") == 0)
        #expect(try ChangesRequest.parseSequence("42") == 42)
        #expect(try ChangesRequest.parseSequence("\"7\"") == 7)
        #expect(try ChangesRequest.parseSequence("8-g1AAAACbeJz") == 8)
        #expect(try ChangesRequest.parseSequence("now") == nil)
        #expect(throws: CouchError.self) { try ChangesRequest.parseSequence("abc") }
    }

    @Test("Reply JSON puts CouchDB's leading members first and escapes strings")
    func jsonText() throws {
        let text = JSONWriter.couchDB.string(["z": 1, "_rev": "1-a", "_id": "x", "s": "a\"b\n\u{01}", "d": 1.5])
        #expect(text == #"{"_id":"x","_rev":"1-a","d":1.5,"s":"a\"b\n\u0001","z":1}"#)
        #expect(try JSONValue.parse(Data(text.utf8)).objectValue?["s"] == "a\"b\n\u{01}")
    }

    @Test("Session cookies verify only when signed by this server and unexpired")
    func cookies() {
        let cookies = SessionCookie(lifetime: 600)
        let value = cookies.issue(user: "admin")
        #expect(cookies.verify(value)?.user == "admin")
        #expect(cookies.verify(value, now: Date().addingTimeInterval(700)) == nil)
        #expect(SessionCookie(lifetime: 600).verify(value) == nil)
        #expect(cookies.verify("garbage") == nil)
    }
}
