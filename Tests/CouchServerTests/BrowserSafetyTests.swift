import InteropSupport
import CouchServer
import DocumentStore
import Foundation
import Testing
import TestSupport
import DocumentFormat

/// What keeps a web page from using the server through a visitor's browser: the `Host` check
/// against DNS rebinding, JSON-only endpoints against cross-site form posts, and a session
/// cookie that scripts cannot read and other sites' POSTs do not carry.
@Suite("CouchServer browser safety")
struct BrowserSafetyTests {
    /// The reply to `GET /` sent with `Host: host`.
    static func welcome(port: Int, host: String) async throws -> HTTPReply {
        let connection = try RawHTTPConnection(port: port)
        try await connection.sendHead(["GET / HTTP/1.1", "Host: \(host)", "Connection: close"])
        return try await connection.readReply()
    }

    @Test("A loopback server answers loopback names and --public-host names only, on its own port")
    func loopbackHostCheck() async throws {
        try await withServer(TestServer.start { $0.publicHosts = ["Recipes.example"] }) { server in
            let port = try #require(server.server.port)
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)", "localhost", "LOCALHOST:\(port)",
                         "recipes.example:\(port)", "recipes.example"] {
                #expect(try await Self.welcome(port: port, host: host).status == 200, "\(host)")
            }
            for host in ["evil.example:\(port)", "evil.example", "localhost.evil.example:\(port)", "localhost:\(port + 1)",
                         "10.0.0.7:\(port)", "127.0.0.1:\(port):1"] {
                let reply = try await Self.welcome(port: port, host: host)
                #expect(reply.status == 400, "\(host)")
                #expect(try RequestHardeningTests.error(reply) == "bad_request", "\(host)")
            }
            // The check comes first: a rebound page learns nothing, not even that it needs a user.
            let connection = try RawHTTPConnection(port: port)
            try await connection.sendHead(["GET /_all_dbs HTTP/1.1", "Host: evil.example:\(port)", "Connection: close"]
                + server.auth.map { "\($0.key): \($0.value)" })
            #expect(try await connection.readReply().status == 400)
        }
    }

    @Test("A server bound to every address answers any IP address and its public names, but no other name")
    func wildcardHostCheck() async throws {
        try await withServer(TestServer.start { $0.host = "0.0.0.0"; $0.publicHosts = ["recipes.example"] }) { server in
            let port = try #require(server.server.port)
            for host in ["192.0.2.10:\(port)", "[2001:db8::1]:\(port)", "localhost:\(port)", "recipes.example:\(port)"] {
                #expect(try await Self.welcome(port: port, host: host).status == 200, "\(host)")
            }
            #expect(try await Self.welcome(port: port, host: "evil.example:\(port)").status == 400)
        }
    }

    @Test("POSTs that read JSON answer 415 to other content types; _session takes a form")
    func contentTypes() async throws {
        try await withServer(TestServer.start()) { server in
            let port = try #require(server.server.port)
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            let badType: JSONValue = ["error": "bad_content_type", "reason": "Content-Type must be application/json"]
            let docs = Data(#"{"docs":[{"_id":"forged"}]}"#.utf8)
            for (method, path, type) in [
                ("POST", "/db/_bulk_docs", "text/plain"), ("POST", "/db/_bulk_docs", "application/x-www-form-urlencoded"),
                ("POST", "/db/_bulk_docs", "multipart/form-data; boundary=x"), ("POST", "/db", "text/plain"),
                ("POST", "/db", "application/x-www-form-urlencoded"), ("POST", "/db/_find", "application/x-www-form-urlencoded"),
                ("POST", "/db/_all_docs", "text/plain"), ("POST", "/db/_find", "text/plain"), ("POST", "/db/_bulk_get", "text/plain"),
                ("POST", "/db/_revs_diff", "text/plain"), ("POST", "/db/_index", "text/plain"), ("POST", "/_session", "text/plain"),
            ] {
                let reply = try await server.client.send(method, path, headers: server.auth.merging(["Content-Type": type]) { $1 }, body: docs)
                #expect(reply.status == 415, "\(method) \(path) \(type)")
                #expect(try reply.json() == badType, "\(method) \(path) \(type)")
            }
            // A body without any Content-Type is refused too; a bodyless POST needs none.
            let untyped = try RawHTTPConnection(port: port)
            try await untyped.sendHead(["POST /db/_bulk_docs HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Length: \(docs.count)",
                                        "Connection: close"] + server.auth.map { "\($0.key): \($0.value)" })
            try await untyped.send(docs)
            #expect(try await untyped.readReply().status == 415)
            #expect(try await server.client.send("POST", "/db/_ensure_full_commit", headers: server.auth).status == 201)
            #expect(try await server.client.send("GET", "/db/forged", headers: server.auth).status == 404)
            #expect(try await server.client.send("GET", "/db", headers: server.auth).json().objectValue?["doc_count"] == 0)

            // What CouchDB accepts still works: JSON with a charset, a multipart/related document, a login form.
            let typed = try await server.client.send(
                "POST", "/db/_bulk_docs", headers: server.auth.merging(["Content-Type": "application/json; charset=utf-8"]) { $1 }, body: docs)
            #expect(typed.status == 201)
            let boundary = "abc123"
            let related = Data((
                "--\(boundary)\r\nContent-Type: application/json\r\n\r\n"
                + #"{"_id":"withfile","_attachments":{"a.txt":{"follows":true,"content_type":"text/plain","length":5}}}"#
                + "\r\n--\(boundary)\r\n\r\nhello\r\n--\(boundary)--"
            ).utf8)
            let put = try await server.client.send(
                "PUT", "/db/withfile", headers: server.auth.merging(["Content-Type": "multipart/related; boundary=\"\(boundary)\""]) { $1 },
                body: related)
            #expect(put.status == 201)
            #expect(try await server.client.send("GET", "/db/withfile/a.txt", headers: server.auth).body == Data("hello".utf8))
            let login = try await server.client.send(
                "POST", "/_session", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("name=admin&password=password".utf8))
            #expect(login.status == 200)
        }
    }

    @Test("A document, _local document or _security PUT reads its body as JSON whatever its Content-Type, as CouchDB does")
    func putIgnoresContentType() async throws {
        try await withServer(TestServer.start()) { server in
            let port = try #require(server.server.port)
            #expect(try await server.client.send("PUT", "/db", headers: server.auth).status == 201)
            let body = Data(#"{"x":1}"#.utf8)
            for (path, type) in [("/db/form", "application/x-www-form-urlencoded"), ("/db/plain", "text/plain"),
                                 ("/db/_local/form", "application/x-www-form-urlencoded")] {
                let put = try await server.client.send("PUT", path, headers: server.auth.merging(["Content-Type": type]) { $1 }, body: body)
                #expect(put.status == 201, "\(path) \(type)")
                #expect(try put.json().objectValue?["ok"] == true, "\(path) \(type)")
                #expect(try await server.client.send("GET", path, headers: server.auth).json().objectValue?["x"] == 1, "\(path)")
            }
            // No Content-Type at all, as some clients send a PUT.
            let untyped = try RawHTTPConnection(port: port)
            try await untyped.sendHead(["PUT /db/untyped HTTP/1.1", "Host: 127.0.0.1:\(port)", "Content-Length: \(body.count)",
                                        "Connection: close"] + server.auth.map { "\($0.key): \($0.value)" })
            try await untyped.send(body)
            #expect(try await untyped.readReply().status == 201)
            #expect(try await server.client.send("GET", "/db/untyped", headers: server.auth).json().objectValue?["x"] == 1)
            let account = try await server.client.send(
                "PUT", "/_users/org.couchdb.user:bob", headers: server.auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                body: Data(#"{"name":"bob","password":"pw","roles":[],"type":"user"}"#.utf8))
            #expect(account.status == 201)
            let security = try await server.client.send(
                "PUT", "/db/_security", headers: server.auth.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
                body: Data(#"{"members":{"names":["bob"]}}"#.utf8))
            #expect(security.status == 200)

            // A body that is not JSON, or not an object, still gets CouchDB's bad_request and writes nothing.
            let form = ["Content-Type": "application/x-www-form-urlencoded"]
            let notJSON = try await server.client.send("PUT", "/db/bad", headers: server.auth.merging(form) { $1 }, body: Data("x=1&y=2".utf8))
            #expect(notJSON.status == 400)
            #expect(try notJSON.json() == ["error": "bad_request", "reason": "invalid UTF-8 JSON"])
            let array = try await server.client.send("PUT", "/db/bad", headers: server.auth.merging(form) { $1 }, body: Data("[1]".utf8))
            #expect(array.status == 400)
            #expect(try array.json().objectValue?["error"] == "bad_request")
            #expect(try await server.client.send("GET", "/db/bad", headers: server.auth).status == 404)
            #expect(try await server.client.send("GET", "/db", headers: server.auth).json().objectValue?["doc_count"] == 3)
        }
    }

    @Test("The session cookie is HttpOnly and SameSite=Lax, and Secure when a TLS proxy forwarded the login")
    func cookieAttributes() async throws {
        try await withServer(TestServer.start()) { server in
            let credentials: JSONValue = ["name": "admin", "password": "password"]
            let plain = try #require(try await server.client.send("POST", "/_session", json: credentials).header("Set-Cookie"))
            let attributes = Set(plain.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
            #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Lax"))
            #expect(!attributes.contains("Secure"))
            let proxied = try #require(try await server.client.send(
                "POST", "/_session", json: credentials, headers: ["X-Forwarded-Proto": "https"]).header("Set-Cookie"))
            #expect(proxied.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.contains("Secure"))
            let logout = try #require(try await server.client.send("DELETE", "/_session").header("Set-Cookie"))
            #expect(logout.contains("SameSite=Lax"))
        }
    }
}
