import CouchProtocol
import DocumentStore
import Foundation
import Testing
import DocumentFormat

/// Malformed replies to the `_bulk_get`, `open_revs`, `GET /db`, `_all_docs` and `_find`
/// messages throw a ``ReplyShapeError`` naming what was wrong; malformed `_bulk_get` requests
/// are CouchDB's 400s.
@Suite struct ReplyMessageShapeTests {
    static func shapeError(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as ReplyShapeError {
            return error.description
        } catch {
            return "unexpected \(error)"
        }
    }

    @Test func malformedBulkGetRepliesAreRefused() {
        #expect(Self.shapeError { _ = try BulkGetMessage.Response(json: ["results": "nope"]) } == "bulk_get reply without a results array")
        #expect(Self.shapeError { _ = try BulkGetMessage.Response(json: ["results": [["id": "a"]]]) } == "bulk_get result without docs")
        #expect(Self.shapeError { _ = try BulkGetMessage.Response(json: ["results": [["id": "a", "docs": [["ok": 1]]]]]) }
            == "revision of a is not an object")
        #expect(Self.shapeError { _ = try BulkGetMessage.Response(json: ["results": [["id": "a", "docs": [["nothing": 1]]]]]) }
            == "revision entry of a has neither ok, missing nor error")
        #expect(Self.shapeError { _ = try BulkGetMessage.Response(json: ["results": [["id": "a", "docs": ["x"]]]]) }
            == "revision entry of a is not an object")
    }

    @Test func bulkGetRequestsRefuseWhatCouchDBRefuses() throws {
        func status(_ body: JSONObject) -> (Int, String)? {
            do {
                _ = try BulkGetMessage.Request(json: body)
                return nil
            } catch {
                return (error.status, error.error)
            }
        }
        #expect(status(["doc": []])! == (400, "bad_request"))
        #expect(status(["docs": [["rev": "1-a"]]])! == (400, "bad_request"))
        #expect(status(["docs": [["id": "a", "atts_since": "1-a"]]])! == (400, "bad_request"))
        #expect(status(["docs": [["id": "a", "atts_since": ["nope"]]]])! == (400, "bad_request"))
        // A revision that does not parse is kept as text, for an error entry in the reply.
        #expect(try BulkGetMessage.Request(json: ["docs": [["id": "a", "rev": "nope"]]]).docs == [.init(id: "a", rev: "nope")])
    }

    @Test func malformedOpenRevsRepliesAreRefused() {
        #expect(Self.shapeError { _ = try OpenRevsReply(json: ["ok": [:]], documentID: "d") } == "open_revs reply is not an array")
        #expect(Self.shapeError { _ = try OpenRevsReply(json: [["missing": 1]], documentID: "d") }
            == "revision entry of d has neither ok, missing nor error")
        let broken = Data("--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--".utf8)
        #expect(Self.shapeError {
            _ = try OpenRevsMultipartReply(data: broken, contentType: "multipart/mixed; boundary=b", documentID: "d")
        } == "open_revs part of d has unexpected Content-Type text/plain")
        let unframed = Data("no parts here".utf8)
        #expect(Self.shapeError {
            _ = try OpenRevsMultipartReply(data: unframed, contentType: "multipart/mixed; boundary=b", documentID: "d")
        }?.hasPrefix("open_revs reply of d: ") == true)
        // A following attachment whose bytes do not match its stub is refused with the document.
        let mismatched = Data(("--b\r\nContent-Type: multipart/related; boundary=r\r\n\r\n--r\r\nContent-Type: application/json\r\n\r\n"
            + #"{"_id":"d","_rev":"1-a","_attachments":{"a.txt":{"content_type":"text/plain","length":9,"follows":true,"digest":"md5-XUFAKrxLKna5cZ2REBfFkg=="}}}"#
            + "\r\n--r\r\nContent-Disposition: attachment; filename=\"a.txt\"\r\n\r\nhello\r\n--r--\r\n--b--").utf8)
        #expect(Self.shapeError {
            _ = try OpenRevsMultipartReply(data: mismatched, contentType: "multipart/mixed; boundary=b", documentID: "d")
        }?.hasPrefix("document d: ") == true)
    }

    @Test func databaseInfoCountsAreCheckedAndNamed() throws {
        #expect(Self.shapeError { _ = try DatabaseInfoReply(json: ["doc_count": 1]) } == "database info without update_seq")
        #expect(Self.shapeError { _ = try DatabaseInfoReply(json: ["update_seq": nil]) } == "database info without update_seq")
        #expect(Self.shapeError { _ = try DatabaseInfoReply(json: ["update_seq": "1", "doc_count": -1]) }
            == "database info field 'doc_count' is -1, not an integer from 0 to 9007199254740991")
        #expect(Self.shapeError { _ = try DatabaseInfoReply(json: ["update_seq": "1", "doc_del_count": 9_007_199_254_740_992]) }
            == "database info field 'doc_del_count' is 9007199254740992, not an integer from 0 to 9007199254740991")
        #expect(Self.shapeError { _ = try DatabaseInfoReply(json: ["update_seq": "1", "sizes": ["file": 1.5]]) }
            == "database info sizes field 'file' is 1.5, not an integer from 0 to 9007199254740991")
        #expect(Self.shapeError { _ = try DatabaseInfoReply(json: ["update_seq": "1", "instance_start_time": 0]) }
            == "database info field 'instance_start_time' is not a string")
        // An older server's number sequence and members this type does not name read back as they came.
        let old: JSONValue = ["update_seq": 12, "doc_count": 3, "disk_size": 4096, "committed_update_seq": 12]
        let info = try DatabaseInfoReply(json: old)
        #expect(info.updateSequence == 12 && info.documentCount == 3 && info.others == ["disk_size": 4096, "committed_update_seq": 12])
        #expect(info.json == old)
    }

    @Test func malformedAllDocsAndFindRepliesAreRefused() {
        #expect(Self.shapeError { _ = try AllDocsReply(json: ["total_rows": 1]) } == "all_docs reply without a rows array")
        #expect(Self.shapeError { _ = try AllDocsReply(json: ["rows": []]) } == "all_docs reply without total_rows")
        #expect(Self.shapeError { _ = try AllDocsReply(json: ["total_rows": 1, "offset": -2, "rows": []]) }
            == "all_docs reply field 'offset' is -2, not an integer from 0 to 9007199254740991")
        #expect(Self.shapeError { _ = try AllDocsReply(json: ["total_rows": 1, "rows": [["id": "a", "key": "a", "value": ["rev": "x"]]]]) }
            == "all_docs row a without a valid value.rev")
        #expect(Self.shapeError { _ = try AllDocsReply(json: ["total_rows": 1, "rows": [["error": "not_found"]]]) }
            == "all_docs error row without a key")
        #expect(Self.shapeError { _ = try FindReply(json: ["docs": [1], "bookmark": "nil"]) } == "find reply document is not an object")
        #expect(Self.shapeError { _ = try FindReply(json: ["docs": []]) } == "find reply without a bookmark")
        #expect(Self.shapeError { _ = try FindReply(json: ["bookmark": "nil"]) } == "find reply without a docs array")
    }

    /// `include_docs=true` with `keys`, as CouchDB documents it: a deleted document's row has
    /// `"doc": null`.
    @Test func allDocsRowsWithDocuments() throws {
        let body: JSONValue = ["total_rows": 2, "offset": nil, "rows": [
            ["id": "a", "key": "a", "value": ["rev": "1-aaaa"], "doc": ["_id": "a", "_rev": "1-aaaa", "n": 1]],
            ["id": "b", "key": "b", "value": ["rev": "2-bbbb", "deleted": true], "doc": nil],
        ]]
        let reply = try AllDocsReply(json: body)
        #expect(reply.rows[1] == .document(id: "b", rev: RevisionID("2-bbbb")!, deleted: true, doc: .null))
        #expect(reply.json == body)
    }
}
