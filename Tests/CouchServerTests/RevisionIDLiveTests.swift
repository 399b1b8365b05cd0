import CouchServer
import DocumentFormat
import DocumentStore
import Foundation
import InteropSupport
import Testing
import TestSupport

/// Revision IDs against a live CouchDB 3.4.3 (`COUCHDB_URL`): generated writes (creates,
/// updates, deletes, with and without attachments; nested objects, arrays, unicode, escapes,
/// numbers of every JSON form, repeated keys) made on CouchDB, through `recipes serve` and
/// through the store get the same IDs, and an identical edit made on both sides of a
/// replication is one revision, not a conflict.
@Suite("Revision IDs equal to a live CouchDB's", .serialized,
       .enabled(if: LiveCouchDB.isConfigured, "COUCHDB_URL is not set: no live CouchDB to compare revision IDs with"))
struct RevisionIDLiveTests {
    /// Generated writes drawn from a reproducible source (TestSupport's `SeededGenerator`),
    /// so a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var source: SeededGenerator

        init(state: UInt64) { source = SeededGenerator(seed: state) }

        mutating func next() -> UInt64 { source.next() }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ options: [T]) -> T { options[below(options.count)] }

        static let strings = [
            "", "Soup", "crème brûlée", "日本語", "😀 emoji", "tab\\there", "quote \\\" and \\\\ slash \\/",
            "\\u00e9t\\u00e9", "\\ud83d\\ude00 pair", "line\\nbreak", "\\u0000nul", "ß", "a/b", "Ωmega",
        ]
        static let numbers = [
            "0", "1", "-1", "7", "255", "256", "-255", "65535", "2147483647", "2147483648", "-2147483648",
            "-2147483649", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
            "123456789012345678901234567890", "-98765432109876543210", "-0", "0.0", "-0.0", "1.0", "1.5",
            "-2.25", "0.1", "3.141592653589793", "1e3", "1E3", "1e+3", "2e-5", "1.25e+10", "-4.5E-7", "1e22",
            "1e23", "5e-324", "4.9e-324", "123e-320", "1e-400", "12345678901234567890123456789012345e-5",
            "1.7976931348623157e308", "9007199254740993", "100E-2", "0.5e1",
        ]
        static let keys = ["name", "n", "tags", "a", "b", "z", "_replication_state", "ké", "日", "x y", "", "id"]
        static let types = ["image/png", "image/jpeg", "application/octet-stream", "application/pdf", "font/woff2",
                            "text/plain", "application/json", "text/html; charset=utf-8"]

        /// A JSON value's text, `depth` levels deep at most.
        mutating func value(depth: Int) -> String {
            switch below(depth > 0 ? 9 : 5) {
            case 0: return "\"" + pick(Self.strings) + "\""
            case 1, 2: return pick(Self.numbers)
            case 3: return pick(["true", "false", "null"])
            case 4: return "[" + (0..<below(4)).map { _ in String(below(256)) }.joined(separator: ",") + "]"
            case 5, 6: return "[" + (0..<below(4)).map { _ in value(depth: depth - 1) }.joined(separator: ", ") + "]"
            default: return object(depth: depth - 1)
            }
        }

        /// An object's text: keys in random order, now and then one repeated.
        mutating func object(depth: Int, members: Int? = nil) -> String {
            var parts: [String] = []
            var used: [String] = []
            for _ in 0..<(members ?? below(5)) {
                var key = pick(Self.keys)
                if key == "_replication_state" && depth < 2 { key = "r" }
                if chance(10), let again = used.last { key = again }
                used.append(key)
                parts.append("\"\(key)\":" + value(depth: depth))
            }
            return "{" + parts.joined(separator: chance(20) ? " , " : ",") + "}"
        }
    }

    /// What one side holds of a document.
    struct Held {
        var rev: String?
        var deleted = false
        var attachments: [String: (type: String, data: Data)] = [:]
    }

    static func rev(_ reply: HTTPReply) -> String? {
        (try? reply.json().objectValue?["rev"]?.stringValue) ?? nil
    }

    @Test("1,000 generated writes get the same IDs on CouchDB, through recipes serve and through the store")
    func generatedWrites() async throws {
        let couch = try await LiveCouchDB.connect()
        let json = ["Content-Type": "application/json"]
        try await couch.withDatabase("revids-received") { received in
            try await couch.withDatabase("revids-canonical") { canonical in
                try await withServer(TestServer.start()) { server in
                    #expect(try await server.client.send("PUT", "/received", headers: server.auth).status == 201)
                    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("revids-\(UUID().uuidString)")
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    defer { try? FileManager.default.removeItem(at: directory) }
                    let store = try DocumentStore(path: directory.appendingPathComponent("store.sqlite").path)
                    defer { try? store.close() }

                    var random = Generator(state: 45)
                    var couchA: [String: Held] = [:], serve: [String: Held] = [:]
                    var couchB: [String: Held] = [:], local: [String: Held] = [:]
                    var sameServe = 0, sameStore = 0, writes = 0
                    var mismatches: [String] = []
                    let total = 1000
                    while writes < total {
                        let id = "doc\(random.below(60))"
                        let exists = couchA[id].map { !$0.deleted } ?? false
                        let action = !exists ? 0 : random.pick([1, 1, 1, 2])
                        // The attachments the new revision keeps (stubs) and adds (data).
                        var kept: [String] = []
                        var added: [(name: String, type: String, data: Data)] = []
                        if action != 2 {
                            let current = couchA[id].map { $0.deleted ? [] : Array($0.attachments.keys) } ?? []
                            kept = current.filter { _ in random.chance(70) }.shuffled(using: &random)
                            if random.chance(30) {
                                for _ in 0...random.below(2) {
                                    let data = Data((0..<random.below(40)).map { _ in UInt8(random.below(256)) })
                                    added.append(("f\(random.below(6)).bin", random.pick(Generator.types), data))
                                }
                            }
                        }
                        var addedNames = Set<String>()
                        added = added.filter { addedNames.insert($0.name).inserted }
                        kept.removeAll { addedNames.contains($0) }
                        let body = random.object(depth: 3, members: 1 + random.below(6))
                        let deleteWithBody = action == 2 && random.chance(50)

                        // Received order: the same text to CouchDB and to recipes serve.
                        func text(rev: String?, held: Held?) -> String {
                            var special: [String] = []
                            if let rev { special.append("\"_rev\":\"\(rev)\"") }
                            if action == 2 { special.append("\"_deleted\":true") }
                            var entries: [String] = kept.map { "\"\($0)\":{\"stub\":true}" }
                            for attachment in added {
                                entries.insert("\"\(attachment.name)\":{\"content_type\":\"\(attachment.type)\",\"data\":\"\(attachment.data.base64EncodedString())\"}",
                                               at: random.below(entries.count + 1))
                            }
                            if !entries.isEmpty { special.append("\"_attachments\":{" + entries.joined(separator: ",") + "}") }
                            let inner = body.dropFirst().dropLast()
                            let members = (inner.isEmpty ? [] : [String(inner)]) + special
                            return "{" + members.joined(separator: ",") + "}"
                        }
                        let couchRev: String?
                        let serveRev: String?
                        let sameParents = couchA[id]?.rev == serve[id]?.rev && couchB[id]?.rev == local[id]?.rev
                        var sent = ""
                        var sentCanonical = "" 
                        if action == 2 && !deleteWithBody {
                            couchRev = Self.rev(try await couch.send("DELETE", "/\(received)/\(id)?rev=\(couchA[id]?.rev ?? "")"))
                            serveRev = Self.rev(try await server.client.send("DELETE", "/received/\(id)?rev=\(serve[id]?.rev ?? "")",
                                                                              headers: server.auth))
                        } else {
                            let parentA = exists ? couchA[id]?.rev : nil
                            let parentS = exists ? serve[id]?.rev : nil
                            let theirs = text(rev: parentA, held: couchA[id])
                            sent = theirs
                            couchRev = Self.rev(try await couch.send("PUT", "/\(received)/\(id)", headers: json, body: Data(theirs.utf8)))
                            let ours = parentA == parentS ? theirs : text(rev: parentS, held: serve[id])
                            serveRev = Self.rev(try await server.client.send("PUT", "/received/\(id)", headers: server.auth.merging(json) { $1 },
                                                                              body: Data(ours.utf8)))
                        }

                        // Canonical order: the store's write, and CouchDB given the text our writer makes of it.
                        let parsed = try #require(try JSONValue.parse(Data(body.utf8)).objectValue)
                        var changes: [AttachmentChange] = added.map { .put(name: $0.name, contentType: $0.type, data: $0.data) }
                        for name in (local[id]?.attachments.keys).map(Array.init) ?? [] where !kept.contains(name) && !addedNames.contains(name) {
                            changes.append(.remove(name: name))
                        }
                        let localRev: String?
                        let canonicalRev: String?
                        if action == 2 {
                            localRev = try? store.delete(id: id, parent: RevisionID(local[id]?.rev ?? "") ?? RevisionID(generation: 1, hash: "0")).rev.description
                            canonicalRev = Self.rev(try await couch.send("DELETE", "/\(canonical)/\(id)?rev=\(couchB[id]?.rev ?? "")"))
                        } else {
                            if exists, let parent = local[id]?.rev.flatMap(RevisionID.init) {
                                localRev = try? store.update(id: id, parent: parent, body: parsed, attachments: changes).rev.description
                            } else {
                                localRev = try? store.create(id: id, body: parsed, attachments: changes).rev.description
                            }
                            var document = parsed
                            if exists, let rev = couchB[id]?.rev { document["_rev"] = .string(rev) }
                            var attachments = JSONObject()
                            for name in kept { attachments[name] = ["stub": true] }
                            for attachment in added {
                                attachments[attachment.name] = ["content_type": .string(attachment.type),
                                                                "data": .string(attachment.data.base64EncodedString())]
                            }
                            if !attachments.isEmpty { document["_attachments"] = .object(attachments) }
                            sentCanonical = String(decoding: CanonicalJSON.encode(.object(document)), as: UTF8.self)
                            canonicalRev = Self.rev(try await couch.send("PUT", "/\(canonical)/\(id)", headers: json,
                                                                          body: CanonicalJSON.encode(.object(document))))
                        }

                        writes += 1
                        if couchRev != nil && couchRev == serveRev { sameServe += 1 } else if mismatches.count < 10 && sameParents {
                            mismatches.append("serve \(id) \(String(describing: serveRev)) vs CouchDB \(String(describing: couchRev)) after \(String(describing: couchA[id]?.rev)): \(action) \(sent)")
                        }
                        if canonicalRev != nil && canonicalRev == localRev { sameStore += 1 } else if mismatches.count < 10 && sameParents {
                            mismatches.append("store \(id) \(String(describing: localRev)) vs CouchDB \(String(describing: canonicalRev)): \(action) \(sentCanonical)")
                        }
                        func advance(_ held: inout [String: Held], _ rev: String?) {
                            var next = held[id] ?? Held()
                            next.rev = rev ?? next.rev
                            next.deleted = action == 2
                            var attachments: [String: (type: String, data: Data)] = [:]
                            if action != 2 {
                                for name in kept { attachments[name] = next.attachments[name] }
                                for attachment in added { attachments[attachment.name] = (attachment.type, attachment.data) }
                            }
                            next.attachments = attachments
                            held[id] = next
                        }
                        advance(&couchA, couchRev)
                        advance(&serve, serveRev)
                        advance(&couchB, canonicalRev)
                        advance(&local, localRev)
                    }
                    #expect(sameServe == total, "recipes serve: \(sameServe) of \(total) IDs equal to CouchDB's; \(mismatches)")
                    #expect(sameStore == total, "store: \(sameStore) of \(total) IDs equal to CouchDB's; \(mismatches)")
                    print("RevisionIDLiveTests: serve \(sameServe) of \(total), store \(sameStore) of \(total) IDs equal to CouchDB's")
                }
            }
        }
    }

    @Test("POST /{db}, _bulk_docs and multipart PUT hash the bodies as received, as CouchDB does")
    func otherWritePaths() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("revids-paths") { name in
            try await withServer(TestServer.start()) { server in
                let json = ["Content-Type": "application/json"]
                #expect(try await server.client.send("PUT", "/paths", headers: server.auth).status == 201)
                func both(_ method: String, _ path: String, _ body: String, headers: [String: String] = json) async throws -> (HTTPReply, HTTPReply) {
                    let theirs = try await couch.send(method, "/\(name)\(path)", headers: headers, body: Data(body.utf8))
                    let ours = try await server.client.send(method, "/paths\(path)", headers: server.auth.merging(headers) { $1 },
                                                            body: Data(body.utf8))
                    return (theirs, ours)
                }
                let (postTheirs, postOurs) = try await both("POST", "", #"{"z":1,"_id":"posted","a":[1,2,3],"é":{"y":1e3,"x":-0.0}}"#)
                #expect(Self.rev(postTheirs) != nil && Self.rev(postTheirs) == Self.rev(postOurs))

                let bulk = #"{"docs":[{"_id":"b1","z":true,"a":null},{"b":[[]],"_id":"b2","_attachments":{"y.bin":{"content_type":"image/png","data":"AAEC"},"x.bin":{"content_type":"application/octet-stream","data":"AQ=="}}},{"_id":"b3","k":"v","k":"w"}]}"#
                let (bulkTheirs, bulkOurs) = try await both("POST", "/_bulk_docs", bulk)
                let theirRevs = try bulkTheirs.json().arrayValue?.map { $0.objectValue?["rev"] }
                let ourRevs = try bulkOurs.json().arrayValue?.map { $0.objectValue?["rev"] }
                #expect(theirRevs?.count == 3 && theirRevs == ourRevs)

                let boundary = "revids-boundary"
                let multipart = "--\(boundary)\r\nContent-Type: application/json\r\n\r\n"
                    + #"{"title":"with part","_attachments":{"p.bin":{"follows":true,"content_type":"image/png","length":3}},"n":2}"#
                    + "\r\n--\(boundary)\r\nContent-Disposition: attachment; filename=\"p.bin\"\r\n\r\nabc\r\n--\(boundary)--"
                let (partTheirs, partOurs) = try await both("PUT", "/parted", multipart,
                                                            headers: ["Content-Type": "multipart/related; boundary=\"\(boundary)\""])
                #expect(Self.rev(partTheirs) != nil && Self.rev(partTheirs) == Self.rev(partOurs))
            }
        }
    }

    @Test("Attachment PUTs and DELETEs on their own hash in the order CouchDB keeps: the new one first, the rest as last sent")
    func standaloneAttachmentWrites() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("revids-attachments") { name in
            try await withServer(TestServer.start()) { server in
                #expect(try await server.client.send("PUT", "/order", headers: server.auth).status == 201)
                func both(_ method: String, _ path: String, _ body: String, type: String) async throws -> (theirs: String?, ours: String?) {
                    let headers = ["Content-Type": type]
                    let theirs = try await couch.send(method, "/\(name)\(path)", headers: headers, body: Data(body.utf8))
                    let ours = try await server.client.send(method, "/order\(path)", headers: server.auth.merging(headers) { $1 },
                                                            body: Data(body.utf8))
                    return (Self.rev(theirs), Self.rev(ours))
                }
                // Sent out of name order, so a store that forgot the order would hash differently.
                let created = try await both("PUT", "/d", #"{"a":1,"_attachments":{"y.bin":{"content_type":"image/png","data":"AAEC"},"x.bin":{"content_type":"application/octet-stream","data":"AQ=="}}}"#,
                                             type: "application/json")
                let first = try #require(created.theirs)
                #expect(created.ours == first)
                let added = try await both("PUT", "/d/m.bin?rev=\(first)", "xyz", type: "image/png")
                let second = try #require(added.theirs)
                #expect(added.ours == second)
                let removed = try await both("DELETE", "/d/x.bin?rev=\(second)", "", type: "application/octet-stream")
                let third = try #require(removed.theirs)
                #expect(removed.ours == third)
                let replaced = try await both("PUT", "/d/y.bin?rev=\(third)", "new", type: "image/png")
                #expect(replaced.theirs != nil && replaced.ours == replaced.theirs)
            }
        }
    }

    @Test("An identical edit made on CouchDB and on recipes serve replicates as one revision, not a conflict")
    func identicalEditReplicatesWithoutConflict() async throws {
        let couch = try await LiveCouchDB.connect()
        try await couch.withDatabase("revids-edit") { name in
            try await withServer(TestServer.start()) { server in
                let json = ["Content-Type": "application/json"]
                let created = try await couch.send("PUT", "/\(name)/soup", headers: json,
                                                   body: Data(#"{"title":"Soup","serves":2}"#.utf8))
                let base = try #require(Self.rev(created))
                let pulled = try await ServerReplicationTests.replicate(
                    server, ["source": .string(couch.databaseURL(name)), "target": "mirror", "create_target": true])
                #expect(pulled.status == 200)

                let edit = #"{"_rev":"\#(base)","title":"Soup","serves":4,"notes":["é",1.5,1e3,12345678901234567890]}"#
                let theirs = try #require(Self.rev(try await couch.send("PUT", "/\(name)/soup", headers: json, body: Data(edit.utf8))))
                let ours = try #require(Self.rev(try await server.client.send("PUT", "/mirror/soup", headers: server.auth.merging(json) { $1 },
                                                                               body: Data(edit.utf8))))
                #expect(ours == theirs)

                for (source, target) in [(couch.databaseURL(name), "mirror"), ("mirror", couch.databaseURL(name))] {
                    let reply = try await ServerReplicationTests.replicate(server, ["source": .string(source), "target": .string(target)])
                    #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
                }
                let onCouch = try await couch.send("GET", "/\(name)/soup?conflicts=true&revs_info=true").json().objectValue
                let onServe = try await server.client.send("GET", "/mirror/soup?conflicts=true&revs_info=true", headers: server.auth).json().objectValue
                #expect(onCouch?["_rev"]?.stringValue == theirs && onServe?["_rev"]?.stringValue == theirs)
                #expect(onCouch?["_conflicts"] == nil && onServe?["_conflicts"] == nil)
                #expect(onCouch?["_revs_info"]?.arrayValue?.count == 2 && onServe?["_revs_info"]?.arrayValue?.count == 2)
                let leaves = try await couch.send("GET", "/\(name)/soup?open_revs=all", headers: ["Accept": "application/json"]).json()
                #expect(leaves.arrayValue?.count == 1)
            }
        }
    }
}
