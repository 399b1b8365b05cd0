import CouchServer
import DocumentFormat
import Foundation
import InteropSupport
import Testing
import TestSupport

/// The same account and `_security` requests sent to `recipes serve` and to a live CouchDB
/// 3.4.3, comparing status codes and error bodies.
@Suite("CouchServer accounts against a live CouchDB",
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to compare accounts with"))
struct AccountAccessDifferentialTests {
    /// What a reply is compared by: its status and, when it has one, its JSON body's `error`
    /// and `reason` (or the whole body for a success).
    static func shape(_ reply: HTTPReply) -> String {
        guard let json = try? reply.json() else { return "\(reply.status)" }
        if reply.status >= 400, let object = json.objectValue {
            return "\(reply.status) \(object["error"]?.stringValue ?? "") \(object["reason"]?.stringValue ?? "")"
        }
        return "\(reply.status)"
    }

    @Test("A member of one database gets CouchDB's replies on another, endpoint by endpoint, with and without credentials")
    func memberOfAOnB() async throws {
        let couch = try await LiveCouchDB.connect()
        let suffix = UUID().uuidString.prefix(8).lowercased()
        let alice = "alice-\(suffix)", bob = "bob-\(suffix)"
        let aliceAuth = HTTPTestClient.basic(alice, "alice-pw")
        try await couch.withDatabase("acl-a") { couchA in
            try await couch.withDatabase("acl-b") { couchB in
                try await withServer(TestServer.start { $0.passwordIterations = 1000 }) { (server: TestServer) async throws -> Void in
                    for name in [alice, bob] {
                        let user: JSONValue = ["name": .string(name), "password": .string(name.hasPrefix("alice") ? "alice-pw" : "bob-pw"),
                                               "roles": [], "type": "user"]
                        #expect(try await couch.send("PUT", "/_users/org.couchdb.user:\(name)", json: user).status == 201)
                        #expect(try await server.client.send("PUT", "/_users/org.couchdb.user:\(name)", json: user, headers: server.auth).status == 201)
                    }
                    #expect(try await server.client.send("PUT", "/a", headers: server.auth).status == 201)
                    #expect(try await server.client.send("PUT", "/b", headers: server.auth).status == 201)
                    for (db, member, ours) in [(couchA, alice, "a"), (couchB, bob, "b")] {
                        let doc: JSONValue = ["a": 1, "_attachments": ["att": ["content_type": "text/plain", "data": "aGk="]]]
                        let security: JSONValue = ["members": ["names": [.string(member)], "roles": []], "admins": ["names": [], "roles": []]]
                        #expect(try await couch.send("PUT", "/\(db)/doc", json: doc).status == 201)
                        #expect(try await server.client.send("PUT", "/\(ours)/doc", json: doc, headers: server.auth).status == 201)
                        let couchSet = try await couch.send("PUT", "/\(db)/_security", json: security)
                        let ourSet = try await server.client.send("PUT", "/\(ours)/_security", json: security, headers: server.auth)
                        #expect(try couchSet.json() == ourSet.json())
                        #expect(try await couch.send("GET", "/\(db)/_security").json()
                            == server.client.send("GET", "/\(ours)/_security", headers: server.auth).json())
                    }
                    for (index, request) in AccountAccessTests.endpoints("DB").enumerated() {
                        let couchPath = request.1.replacingOccurrences(of: "/DB", with: "/\(couchB)")
                        let ourPath = request.1.replacingOccurrences(of: "/DB", with: "/b")
                        for headers in [aliceAuth, [:]] {
                            let couchReply: HTTPReply
                            let ourReply: HTTPReply
                            if let json = request.2 {
                                couchReply = try await couch.client.send(request.0, couchPath, json: json, headers: headers)
                                ourReply = try await server.client.send(request.0, ourPath, json: json, headers: headers)
                            } else {
                                couchReply = try await couch.client.send(request.0, couchPath, headers: headers)
                                ourReply = try await server.client.send(request.0, ourPath, headers: headers)
                            }
                            #expect(Self.shape(ourReply) == Self.shape(couchReply),
                                    "#\(index) \(request.0) \(request.1) \(headers.isEmpty ? "anonymous" : "alice")")
                        }
                    }
                    // The member's own database: a design document is for admins only.
                    let couchDesign = try await couch.client.send("PUT", "/\(couchA)/_design/d", json: [:], headers: aliceAuth)
                    let ourDesign = try await server.client.send("PUT", "/a/_design/d", json: [:], headers: aliceAuth)
                    #expect(Self.shape(ourDesign) == Self.shape(couchDesign))
                    let couchSession = try await couch.client.send("GET", "/_session", headers: aliceAuth).json().objectValue?["userCtx"]
                    let ourSession = try await server.client.send("GET", "/_session", headers: aliceAuth).json().objectValue?["userCtx"]
                    #expect(ourSession == couchSession)
                    let couchWrong = try await couch.client.send("GET", "/\(couchA)", headers: HTTPTestClient.basic(alice, "no"))
                    let ourWrong = try await server.client.send("GET", "/a", headers: HTTPTestClient.basic(alice, "no"))
                    #expect(Self.shape(ourWrong) == Self.shape(couchWrong))
                }
                for name in [alice, bob] {
                    let path = "/_users/org.couchdb.user:\(name)"
                    if let rev = try await couch.send("GET", path).json().objectValue?["_rev"]?.stringValue {
                        _ = try await couch.send("DELETE", "\(path)?rev=\(rev)")
                    }
                }
            }
        }
    }

    @Test("Bad _users documents get the same 403 reasons from both servers")
    func badUserDocuments() async throws {
        let couch = try await LiveCouchDB.connect()
        try await withServer(TestServer.start { $0.passwordIterations = 1000 }) { (server: TestServer) async throws -> Void in
            // Fresh names, so no account a run before left on the live CouchDB gets in the way.
            let suffix = UUID().uuidString.prefix(8).lowercased()
            for (template, bad, reason) in AccountAccessTests.badUserDocuments {
                let id = template.replacingOccurrences(of: "carl", with: "carl-\(suffix)")
                var object = try #require(bad.objectValue)
                if let name = object["name"]?.stringValue { object["name"] = .string("\(name)-\(suffix)") }
                let body = JSONValue.object(object)
                let couchReply = try await couch.send("PUT", "/_users/\(id)", json: body)
                let ourReply = try await server.client.send("PUT", "/_users/\(id)", json: body, headers: server.auth)
                #expect(Self.shape(couchReply) == "403 forbidden \(reason)")
                #expect(Self.shape(ourReply) == Self.shape(couchReply), "\(body)")
            }
            #expect(try await couch.send("HEAD", "/_users").status == 200)
            #expect(try await server.client.send("HEAD", "/_users", headers: server.auth).status == 200)
        }
    }

    @Test("The hash CouchDB stores for a new account verifies on this server")
    func couchHashLogsIn() async throws {
        let couch = try await LiveCouchDB.connect()
        let name = "hash-\(UUID().uuidString.prefix(8).lowercased())"
        let path = "/_users/org.couchdb.user:\(name)"
        #expect(try await couch.send("PUT", path, json: ["name": .string(name), "password": "from couch", "roles": [], "type": "user"]).status == 201)
        let stored = try #require(try await couch.send("GET", path).json().objectValue)
        if let rev = stored["_rev"]?.stringValue { _ = try? await couch.send("DELETE", "\(path)?rev=\(rev)") }
        #expect(stored["derived_key"] != nil && stored["password"] == nil)
        // The document as CouchDB stores it, hash and all, written by the administrator.
        try await withServer(TestServer.start()) { (server: TestServer) async throws -> Void in
            var copy = stored
            copy.removeValue(forKey: "_rev")
            #expect(try await server.client.send("PUT", path, json: .object(copy), headers: server.auth).status == 201)
            let session = try await server.client.send("GET", "/_session", headers: HTTPTestClient.basic(name, "from couch"))
            #expect(try session.json().objectValue?["userCtx"] == ["name": .string(name), "roles": []])
            #expect(try await server.client.send("GET", "/_session", headers: HTTPTestClient.basic(name, "from cou")).status == 401)
        }
    }
}
