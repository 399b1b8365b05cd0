import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// Behaviour beyond the recordings: multipart round trips, authentication, limits, validation,
/// longpoll, and that refused requests change nothing.
@Suite("CouchServer behaviour")
struct ServerBehaviourTests {
    /// JPEG-looking bytes that also contain CRLFs and dashes, to trip a careless multipart parser.
    static let jpegish: Data = {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0x00]
        bytes += Array("\r\n--not-the-boundary\r\n\r\n".utf8)
        for index in 0..<4000 { bytes.append(UInt8((index * 31 + 7) % 256)) }
        bytes += [0xFF, 0xD9]
        return Data(bytes)
    }()

    static func multipartRelated(doc: JSONValue, attachmentName: String, data: Data, boundary: String) throws -> Data {
        var body = Data("--\(boundary)\r\nContent-Type: application/json\r\n\r\n".utf8)
        body.append(try JSONEncoder().encode(doc))
        body.append(Data("\r\n--\(boundary)\r\nContent-Disposition: attachment; filename=\"\(attachmentName)\"\r\nContent-Type: image/jpeg\r\nContent-Length: \(data.count)\r\n\r\n".utf8))
        body.append(data)
        body.append(Data("\r\n--\(boundary)--".utf8))
        return body
    }

    @Test("A multipart/related PUT with new_edits=false stores the attachment byte for byte")
    func multipartPutThenGet() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            #expect(try await server.client.send("PUT", "/photos", headers: server.auth).status == 201)
            let doc: JSONValue = [
                "_id": "pic", "_rev": "1-0123456789abcdef0123456789abcdef", "title": "cake",
                "_revisions": ["start": 1, "ids": ["0123456789abcdef0123456789abcdef"]],
                "_attachments": ["photo.jpg": ["content_type": "image/jpeg", "revpos": 1, "length": .int(Int64(Self.jpegish.count)), "follows": true]],
            ]
            let boundary = "abc123boundary"
            var headers = server.auth
            headers["Content-Type"] = "multipart/related; boundary=\"\(boundary)\""
            let put = try await server.client.send(
                "PUT", "/photos/pic?new_edits=false", headers: headers,
                body: try Self.multipartRelated(doc: doc, attachmentName: "photo.jpg", data: Self.jpegish, boundary: boundary))
            #expect(put.status == 201, "\(String(decoding: put.body, as: UTF8.self))")
            #expect(try put.json().objectValue?["rev"] == "1-0123456789abcdef0123456789abcdef")
            let get = try await server.client.send("GET", "/photos/pic/photo.jpg")
            #expect(get.status == 200)
            #expect(get.body == Self.jpegish)
            #expect(get.header("Content-Type") == "image/jpeg")

            // The same document asked for the way CouchDB's replicator asks: multipart/mixed.
            let openRevs = try await server.client.send(
                "GET", "/photos/pic?revs=true&latest=true&open_revs=%5B%221-0123456789abcdef0123456789abcdef%22%5D",
                headers: ["Accept": "multipart/mixed"])
            #expect(openRevs.status == 200)
            let found = try MultipartTestParser.attachmentParts(openRevs.body, contentType: try #require(openRevs.header("Content-Type")))
            #expect(found.attachments["photo.jpg"] == Self.jpegish)
            #expect(found.json?.objectValue?["_revisions"]?.objectValue?["start"] == 1)
            #expect(found.json?.objectValue?["title"] == "cake")

            // And inline, as PouchDB and our replicator ask for it.
            let bulk = try await server.client.send(
                "POST", "/photos/_bulk_get?revs=true&attachments=true", json: ["docs": [["id": "pic"]]],
                headers: ["Accept": "application/json"])
            let inline = try bulk.json().objectValue?["results"]?.arrayValue?.first?.objectValue?["docs"]?.arrayValue?.first?
                .objectValue?["ok"]?.objectValue?["_attachments"]?.objectValue?["photo.jpg"]?.objectValue?["data"]?.stringValue
            #expect(inline.flatMap { Data(base64Encoded: $0) } == Self.jpegish)
        }
    }

    @Test("A new_edits=true PUT with an inline attachment, then an update with a stub keeps it; omitting it drops it")
    func attachmentStubs() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            let first = try await server.client.send("PUT", "/db/doc", json: [
                "a": 1, "_attachments": ["note.txt": ["content_type": "text/plain", "data": .string(Data("hello".utf8).base64EncodedString())]],
            ], headers: server.auth)
            #expect(first.status == 201)
            let rev1 = try #require(try first.json().objectValue?["rev"]?.stringValue)
            let second = try await server.client.send("PUT", "/db/doc", json: [
                "_rev": .string(rev1), "a": 2, "_attachments": ["note.txt": ["stub": true]],
            ], headers: server.auth)
            #expect(second.status == 201)
            #expect(try await server.client.send("GET", "/db/doc/note.txt").body == Data("hello".utf8))
            let rev2 = try #require(try second.json().objectValue?["rev"]?.stringValue)
            let third = try await server.client.send("PUT", "/db/doc", json: ["_rev": .string(rev2), "a": 3], headers: server.auth)
            #expect(third.status == 201)
            #expect(try await server.client.send("GET", "/db/doc/note.txt").status == 404)
            // atts_since: bytes only for attachments changed after the revision the client has.
            let withSince = try await server.client.send(
                "GET", "/db/doc?rev=\(rev2)&attachments=true&atts_since=%5B%22\(rev1)%22%5D", headers: ["Accept": "application/json"])
            let entry = try withSince.json().objectValue?["_attachments"]?.objectValue?["note.txt"]?.objectValue
            #expect(entry?["stub"] == true)
            #expect(entry?["data"] == nil)
        }
    }

    @Test("With anonymous reads, writes without credentials get 401 and reads stay open; --allow-anonymous lets them through")
    func authentication() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            let anonymousCreate = try await server.client.send("PUT", "/db")
            #expect(anonymousCreate.status == 401)
            #expect(try anonymousCreate.json().objectValue?["error"] == "unauthorized")
            #expect(try await server.client.send("GET", "/_all_dbs").json() == [])
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            #expect(try await server.client.send("PUT", "/db/doc", json: ["a": 1]).status == 401)
            #expect(try await server.client.send("POST", "/db/_bulk_docs", json: ["docs": [["a": 1]]]).status == 401)
            #expect(try await server.client.send("PUT", "/db/_local/x", json: ["a": 1]).status == 401)
            #expect(try await server.client.send("GET", "/db", headers: HTTPTestClient.basic("admin", "nope")).status == 401)
            // Reads and read-only POSTs need no credentials.
            #expect(try await server.client.send("POST", "/db/_revs_diff", json: ["x": ["1-a"]]).status == 200)
            #expect(try await server.client.send("GET", "/db/_changes").status == 200)
            #expect(try await server.client.send("GET", "/db").json().objectValue?["doc_count"] == 0)

            // Cookie sessions: log in, write with the cookie, log out.
            let login = try await server.client.send(
                "POST", "/_session", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("name=admin&password=password".utf8))
            #expect(login.status == 200)
            let setCookie = try #require(login.header("Set-Cookie"))
            let cookie = String(setCookie.split(separator: ";")[0])
            #expect(cookie.hasPrefix("AuthSession=") && cookie.count > "AuthSession=".count)
            #expect(try await server.client.send("PUT", "/db/doc", json: ["a": 1], headers: ["Cookie": cookie]).status == 201)
            let session = try await server.client.send("GET", "/_session", headers: ["Cookie": cookie]).json()
            #expect(session.objectValue?["userCtx"]?.objectValue?["name"] == "admin")
            #expect(try await server.client.send("PUT", "/db/doc2", json: ["a": 1], headers: ["Cookie": "AuthSession=forged"]).status == 401)
            let badLogin = try await server.client.send("POST", "/_session", json: ["name": "admin", "password": "nope"])
            #expect(badLogin.status == 401)
            #expect(try badLogin.json().objectValue?["reason"] == "Name or password is incorrect.")

            try await withServer(TestServer.start(anonymous: .reads) { $0.credentials = nil; $0.anonymousAccess = .all }) { open async throws in
                #expect(try await open.client.send("PUT", "/db").status == 201)
                #expect(try await open.client.send("PUT", "/db/doc", json: ["a": 1]).status == 201)
            }
        }
    }

    @Test("Oversize bodies get 413 too_large and change nothing")
    func oversizeBody() async throws {
        try await withServer(TestServer.start(anonymous: .reads) { $0.maxRequestBodySize = 4096 }) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            let big: JSONValue = ["docs": [["_id": "big", "blob": .string(String(repeating: "x", count: 10_000))]]]
            let reply = try await server.client.send("POST", "/db/_bulk_docs", json: big, headers: server.auth)
            #expect(reply.status == 413)
            #expect(try reply.json().objectValue?["error"] == "too_large")
            #expect(try await server.client.send("GET", "/db/big").status == 404)
            #expect(try await server.client.send("POST", "/db/_bulk_docs", json: ["docs": [["_id": "small"]]], headers: server.auth).status == 201)
        }
    }

    @Test("Database names are validated as CouchDB validates them")
    func databaseNames() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            for bad in ["Bad_Name", "1abc", "_private", "a%20b", "caf%C3%A9"] {
                let reply = try await server.client.send("PUT", "/\(bad)", headers: server.auth)
                #expect(reply.status == 400, "\(bad)")
                #expect(try reply.json().objectValue?["error"] == "illegal_database_name", "\(bad)")
            }
            #expect(try await server.client.send("PUT", "/a-b_c$(d)+e%2Ff", headers: server.auth).status == 201)
            #expect(try await server.client.send("PUT", "/a-b_c$(d)+e%2Ff", headers: server.auth).status == 412)
            #expect(try await server.client.send("GET", "/_all_dbs").json() == ["a-b_c$(d)+e/f"])
            #expect(try await server.client.send("GET", "/a-b_c$(d)+e%2Ff").json().objectValue?["db_name"] == "a-b_c$(d)+e/f")
            #expect(try await server.client.send("DELETE", "/a-b_c$(d)+e%2Ff", headers: server.auth).status == 200)
            #expect(try await server.client.send("GET", "/a-b_c$(d)+e%2Ff").status == 404)
            #expect(try await server.client.send("GET", "/_all_dbs").json() == [])
        }
    }

    @Test("Malformed requests are refused whole and change nothing")
    func badRequestsChangeNothing() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            _ = try await server.client.send("PUT", "/db/keep", json: ["v": 1], headers: server.auth)
            let before = try await server.client.send("GET", "/db").json()
            let attempts: [(String, String, Data, Int)] = [
                ("POST", "/db/_bulk_docs", Data(#"{"docs":[{"_id":"ok1"},{"_id":"bad","_foo":1}]}"#.utf8), 400),
                ("POST", "/db/_bulk_docs", Data(#"{"docs":[{"_id":"ok2"},{"_id":"_bad"}]}"#.utf8), 400),
                ("POST", "/db/_bulk_docs", Data(#"{"new_edits":false,"docs":[{"_id":"ok3","_rev":"1-a"},{"_id":"norev"}]}"#.utf8), 400),
                ("POST", "/db/_bulk_docs", Data(#"{"docs":[{"_id":"ok4"}"#.utf8), 400),
                ("POST", "/db/_bulk_docs", Data(#"{"new_edits":false,"docs":[{"_id":"ok5","_rev":"2-b","_revisions":{"start":2,"ids":["c","a"]}}]}"#.utf8), 400),
                ("PUT", "/db/keep", Data(#"{"v":2,"_rev":"not-a-rev"}"#.utf8), 400),
                ("PUT", "/db/keep", Data("not json".utf8), 400),
                ("PUT", "/db/fresh", Data(#"{"_attachments":{"a":{"data":"%%%"}}}"#.utf8), 400),
                ("PUT", "/db/keep/att?rev=bogus", Data("x".utf8), 400),
                ("PUT", "/db/keep", Data(#"{"v":3}"#.utf8), 409),
            ]
            for (method, path, body, status) in attempts {
                var headers = server.auth
                headers["Content-Type"] = "application/json"
                let reply = try await server.client.send(method, path, headers: headers, body: body)
                #expect(reply.status == status, "\(method) \(path): \(String(decoding: reply.body, as: UTF8.self))")
            }
            let after = try await server.client.send("GET", "/db").json()
            #expect(after.objectValue?["update_seq"] == before.objectValue?["update_seq"])
            #expect(after.objectValue?["doc_count"] == 1)
            let keep = try await server.client.send("GET", "/db/keep").json()
            #expect(keep.objectValue?["v"] == 1)
        }
    }

    @Test("A longpoll _changes request answers as soon as a document is written")
    func longpoll() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            let since = try await server.client.send("GET", "/db").json().objectValue?["update_seq"]?.stringValue ?? "0"
            let started = ContinuousClock.now
            let port = try #require(server.server.port)
            // The longpoll is waiting once it has sent its first heartbeat.
            let waiting = try await RawHTTPConnection.openFeed(
                "/db/_changes?feed=longpoll&since=\(since)&timeout=20000&heartbeat=200&include_docs=true", port: port)
            _ = try await server.client.send("PUT", "/db/late", json: ["v": 1], headers: server.auth)
            let reply = try await waiting.readStreamedReply(timeout: 60)
            // With heartbeats a longpoll waits as long as the client stays (as CouchDB's does), so
            // an answer means the write woke it; the bound leaves room for a loaded machine.
            #expect(ContinuousClock.now - started < .seconds(60))
            let rows = try reply.json().objectValue?["results"]?.arrayValue ?? []
            #expect(rows.count == 1)
            #expect(rows.first?.objectValue?["id"] == "late")
            #expect(rows.first?.objectValue?["doc"]?.objectValue?["v"] == 1)
        }
    }

    @Test("_all_docs honours keys, ranges, descending, limit and skip")
    func allDocs() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            let bulk = try await server.client.send("POST", "/db/_bulk_docs", json: [
                "docs": .array(["a", "b", "c", "d"].map { ["_id": .string($0), "n": .string($0)] }),
            ], headers: server.auth)
            #expect(bulk.status == 201)
            #expect(try bulk.json().arrayValue?.compactMap { $0.objectValue?["ok"] }.count == 4)
            let range = try await server.client.send("GET", "/db/_all_docs?startkey=%22b%22&endkey=%22c%22&include_docs=true").json()
            #expect(range.objectValue?["rows"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == ["b", "c"])
            #expect(range.objectValue?["rows"]?.arrayValue?.first?.objectValue?["doc"]?.objectValue?["n"] == "b")
            let descending = try await server.client.send("GET", "/db/_all_docs?descending=true&limit=2&skip=1").json()
            #expect(descending.objectValue?["rows"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } == ["c", "b"])
            #expect(descending.objectValue?["total_rows"] == 4)
            let keyed = try await server.client.send("POST", "/db/_all_docs", json: ["keys": ["d", "zz"]]).json()
            let rows = keyed.objectValue?["rows"]?.arrayValue ?? []
            #expect(rows.first?.objectValue?["id"] == "d")
            #expect(rows.last?.objectValue?["error"] == "not_found")
            #expect(try await server.client.send("GET", "/db/_all_docs?limit=x").status == 400)
        }
    }

    @Test("_find answers Mango selectors with sort, limit and fields")
    func find() async throws {
        try await withServer(TestServer.start(anonymous: .reads)) { server in
            _ = try await server.client.send("PUT", "/db", headers: server.auth)
            for (id, order) in [("x", 3), ("y", 1), ("z", 2)] {
                _ = try await server.client.send("PUT", "/db/\(id)", json: ["kind": "ing", "order": .int(Int64(order))], headers: server.auth)
            }
            _ = try await server.client.send("PUT", "/db/other", json: ["kind": "recipe"], headers: server.auth)
            let reply = try await server.client.send("POST", "/db/_find", json: [
                "selector": ["kind": "ing", "order": ["$gte": 2]], "sort": [["order": "desc"]], "fields": ["_id", "order"],
            ])
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            let docs = try reply.json().objectValue?["docs"]?.arrayValue ?? []
            #expect(docs == [["_id": "x", "order": 3], ["_id": "z", "order": 2]])
            #expect(try await server.client.send("POST", "/db/_find", json: ["sort": ["a"]]).status == 400)
        }
    }
}
