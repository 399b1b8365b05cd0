import Foundation

/// Generates hostile requests across the CouchDB endpoints `recipes serve` answers: odd
/// numbers in query parameters and bodies, deep nesting, invalid UTF-8, broken multipart,
/// malformed revisions, odd headers and credentials, odd paths and broken framing. The same
/// seed gives the same requests.
struct HostileRequestGenerator {
    private var random: SplitMix64
    private let fixture: FuzzFixture

    init(seed: UInt64, fixture: FuzzFixture) {
        random = SplitMix64(seed: seed)
        self.fixture = fixture
    }

    /// Numbers as a hostile client writes them: huge, negative, fractional, not numbers at all.
    static let numbers = [
        "0", "1", "2", "10", "-1", "-0", "+5", "1.5", "1e3", "1e400", "-1e400", "NaN", "Infinity", "abc", "", " 1", "0x10",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809", "18446744073709551616",
        "99999999999999999999999999999999", "true", "null", "[]", "{}", "1,2", "%00", "١٢", "5abc",
    ]

    /// Revision strings: real-looking, truncated, negative, overflowing, not revisions.
    static let revisionForms = [
        "1-abc", "1-", "-1-abc", "0-abc", "1-ZZZ", "abc", "", "1", "01-abc", "99999999999999999999-abc",
        "9223372036854775807-abc", "2-" + String(repeating: "f", count: 32), "1-\u{0}", "1-é", "1--1", " 1-a",
    ]

    /// Next request.
    mutating func next() -> FuzzRequest {
        var request: FuzzRequest
        switch int(0..<100) {
        case 0..<3: request = root()
        case 3..<6: request = serverList()
        case 6..<9: request = uuids()
        case 9..<14: request = database()
        case 14..<24: request = documentRead()
        case 24..<34: request = documentWrite()
        case 34..<39: request = multipartWrite()
        case 39..<43: request = localDocument()
        case 43..<49: request = allDocs()
        case 49..<56: request = changes()
        case 56..<62: request = bulkDocs()
        case 62..<67: request = bulkGet()
        case 67..<71: request = revsDiff()
        case 71..<76: request = find()
        case 76..<79: request = designDocument()
        case 79..<85: request = attachment()
        case 85..<89: request = session()
        case 89..<93: request = oddPath()
        case 93..<97: request = brokenFraming()
        default: request = otherDatabaseEndpoint()
        }
        if request.headers.first(where: { $0.name == "Authorization" }) == nil, !request.hostileFraming {
            if let authorization = authorization() { request.headers.append(("Authorization", authorization)) }
        }
        if chance(8) { request.headers.append(oddHeader()) }
        if request.targetIsInvalid { request.hostileFraming = true }
        return request
    }

    // MARK: Endpoints

    private mutating func root() -> FuzzRequest {
        FuzzRequest(method: pick(["GET", "GET", "HEAD", "POST", "DELETE", "OPTIONS"]), target: Array("/".utf8) + query(["x"]),
                    endpoint: "/")
    }

    private mutating func serverList() -> FuzzRequest {
        FuzzRequest(method: pick(["GET", "HEAD", "POST"]),
                    target: Array("/_all_dbs".utf8) + query(["limit", "skip", "descending", "startkey", "endkey"]),
                    endpoint: "/_all_dbs")
    }

    private mutating func uuids() -> FuzzRequest {
        FuzzRequest(method: pick(["GET", "GET", "POST"]), target: Array("/_uuids".utf8) + query(["count", "count"]),
                    endpoint: "/_uuids")
    }

    private mutating func database() -> FuzzRequest {
        let name = chance(3) ? pick(["fuzz-new-\(int(0..<4))", "Bad", "_users", "a%2Fb", "-x", "fuzz-scratch",
                                     String(repeating: "d", count: 300), "%FF", "%zz", "caf%C3%A9"]) : db()
        var method = pick(["GET", "HEAD", "PUT", "POST", "DELETE", "COPY"])
        // Deleting a fixture database would leave the rest of the run at 404.
        if method == "DELETE", fixture.databases.contains(name) { method = "GET" }
        var request = FuzzRequest(method: method, target: Array("/\(name)".utf8) + query(["q", "n", "partitioned"]),
                                  endpoint: "/db")
        if method == "POST" { setJSONBody(&request, documentBody()) }
        return request
    }

    private mutating func documentRead() -> FuzzRequest {
        var request = FuzzRequest(
            method: pick(["GET", "GET", "HEAD"]),
            target: Array("/\(db())/\(docID())".utf8) + query([
                "rev", "revs", "open_revs", "revs_info", "conflicts", "deleted_conflicts", "attachments", "atts_since",
                "latest", "local_seq", "meta", "att_encoding_info",
            ]),
            endpoint: "/db/doc")
        if chance(3) {
            request.headers.append(("Accept", Array(pick(["multipart/mixed", "multipart/related", "application/json",
                                                          "text/plain", "*/*", "multipart/mixed; boundary=x"]).utf8)))
        }
        if chance(6) { request.headers.append(("If-None-Match", Array(pick(["\"1-abc\"", "*", "\"", ""]).utf8))) }
        return request
    }

    private mutating func documentWrite() -> FuzzRequest {
        let method = pick(["PUT", "PUT", "DELETE", "POST", "COPY"])
        var request = FuzzRequest(method: method, target: Array("/\(db())/\(docID())".utf8) + query(["rev", "new_edits", "batch", "w"]),
                                  endpoint: "/db/doc")
        if method == "PUT" || method == "POST" { setJSONBody(&request, documentBody()) }
        if method == "COPY" { request.headers.append(("Destination", Array(pick(["copy-1", "", "%FF", "x?rev=1-a", "_design/y"]).utf8))) }
        return request
    }

    private mutating func multipartWrite() -> FuzzRequest {
        let boundary = pick(["abc", "x", "", "a b", "\"quoted\"", String(repeating: "b", count: 100)])
        var request = FuzzRequest(method: pick(["PUT", "PUT", "POST"]), target: Array("/\(db())/\(docID())".utf8) + query(["new_edits", "rev"]),
                                  endpoint: "/db/doc (multipart)")
        request.headers.append(("Content-Type", Array(pick([
            "multipart/related; boundary=\(boundary)", "multipart/related", "multipart/related; boundary=",
            "multipart/mixed; boundary=\(boundary)", "multipart/related; boundary=\"\(boundary)\"; type=application/json",
        ]).utf8)))
        let delimiter = Array("--\(chance(5) ? "other" : boundary)".utf8)
        var body: [UInt8] = []
        if !chance(6) { body += delimiter + Array("\r\n".utf8) }
        body += Array(pick(["Content-Type: application/json\r\n\r\n", "Content-Type: text/plain\r\n\r\n", "\r\n", "",
                            "Content-Length: 99999999999\r\n\r\n", "Content-Type: application/json\r\nContent-Length: -1\r\n\r\n"]).utf8)
        body += chance(3) ? hostileJSON() : Array("{\"_id\":\"m\",\"_attachments\":{\"a.txt\":{\"follows\":true,\"content_type\":\"text/plain\",\"length\":\(pick(Self.numbers))}}}".utf8)
        for _ in 0..<int(0..<3) {
            body += Array("\r\n".utf8) + delimiter + Array("\r\n".utf8)
            body += Array(pick(["Content-Disposition: attachment; filename=\"a.txt\"\r\n\r\n", "\r\n", "Content-Type: image/png\r\n\r\n"]).utf8)
            body += bytes(count: int(0..<64))
        }
        if !chance(4) { body += Array("\r\n".utf8) + delimiter + Array("--".utf8) }
        request.body = body
        return request
    }

    private mutating func localDocument() -> FuzzRequest {
        let method = pick(["GET", "PUT", "PUT", "DELETE", "HEAD", "POST"])
        let id = pick(["x", "checkpoint", "", "%FF", "a/b", "%2F", String(repeating: "l", count: 500)])
        var request = FuzzRequest(method: method, target: Array("/\(db())/_local/\(id)".utf8) + query(["rev", "revs"]),
                                  endpoint: "/db/_local/x")
        if method == "PUT" || method == "POST" { setJSONBody(&request, documentBody()) }
        return request
    }

    private mutating func allDocs() -> FuzzRequest {
        let method = pick(["GET", "GET", "POST"])
        var request = FuzzRequest(
            method: method,
            target: Array("/\(db())/_all_docs".utf8) + query([
                "limit", "skip", "descending", "include_docs", "startkey", "endkey", "start_key", "end_key", "key", "keys",
                "inclusive_end", "conflicts", "update_seq", "startkey_docid",
            ]),
            endpoint: "/db/_all_docs")
        if method == "POST" {
            let body = chance(2)
                ? Array("{\"keys\":".utf8) + jsonList(of: { generator in Array(Self.jsonString(from: generator.docIDText()).utf8) }) + Array("}".utf8)
                : hostileJSON()
            setJSONBody(&request, body)
        }
        return request
    }

    private mutating func changes() -> FuzzRequest {
        let method = pick(["GET", "GET", "POST"])
        var names = ["since", "limit", "heartbeat", "timeout", "include_docs", "style", "descending", "filter", "doc_ids",
                     "seq_interval", "conflicts", "attachments", "att_encoding_info", "last-event-id"]
        // Feeds that stay open are slow to judge (they run to the deadline): one in ten.
        var feed: String? = nil
        if chance(10) {
            feed = pick(["longpoll", "continuous", "eventsource"])
        } else if chance(2) {
            feed = pick(["normal", "bogus", "", "NORMAL", "%00"])
        }
        if feed != nil { names.removeAll { $0 == "timeout" } }
        var target = Array("/\(db())/_changes".utf8) + query(names)
        if let feed {
            target += Array((target.contains(UInt8(ascii: "?")) ? "&" : "?").utf8) + Array("feed=\(feed)".utf8)
            if ["longpoll", "continuous", "eventsource"].contains(feed) {
                // Hostile values would hold the feed open for their whole length: a short one.
                target += Array("&timeout=\(pick(["0", "1", "50", "-1", "abc", "1e400"]))".utf8)
            }
        }
        var request = FuzzRequest(method: method, target: target, endpoint: "/db/_changes")
        request.mayHoldOpen = feed.map { ["longpoll", "continuous", "eventsource"].contains($0) } ?? false
        if method == "POST" {
            let body = chance(2)
                ? Array("{\"doc_ids\":".utf8) + jsonList(of: { generator in Array(Self.jsonString(from: generator.docIDText()).utf8) }) + Array("}".utf8)
                : hostileJSON()
            setJSONBody(&request, body)
        }
        return request
    }

    private mutating func bulkDocs() -> FuzzRequest {
        var request = FuzzRequest(method: pick(["POST", "POST", "GET", "PUT"]), target: Array("/\(db())/_bulk_docs".utf8) + query(["new_edits"]),
                                  endpoint: "/db/_bulk_docs")
        let newEdits = chance(2) ? "" : ",\"new_edits\":\(pick(["false", "true", "\"no\"", "0", "null"]))"
        let body: [UInt8] = chance(4) ? hostileJSON()
            : Array("{\"docs\":".utf8) + jsonList(of: { $0.documentBody() }) + Array("\(newEdits)}".utf8)
        setJSONBody(&request, body)
        return request
    }

    private mutating func bulkGet() -> FuzzRequest {
        var request = FuzzRequest(method: pick(["POST", "POST", "GET"]), target: Array("/\(db())/_bulk_get".utf8) + query(["revs", "attachments", "latest"]),
                                  endpoint: "/db/_bulk_get")
        if chance(3) { request.headers.append(("Accept", Array(pick(["multipart/related", "multipart/mixed", "application/json"]).utf8))) }
        let body: [UInt8] = chance(4) ? hostileJSON() : Array("{\"docs\":".utf8) + jsonList(of: { generator in
            let id = generator.docIDText()
            var entry = "{\"id\":\(Self.jsonString(from: id))"
            if generator.chance(2) { entry += ",\"rev\":\(generator.revisionJSON())" }
            if generator.chance(4) { entry += ",\"atts_since\":\(generator.pick(["[\"1-abc\"]", "\"x\"", "[5]", "null"]))" }
            return Array((entry + "}").utf8)
        }) + Array("}".utf8)
        setJSONBody(&request, body)
        return request
    }

    private mutating func revsDiff() -> FuzzRequest {
        var request = FuzzRequest(method: pick(["POST", "POST", "GET"]), target: Array("/\(db())/_revs_diff".utf8), endpoint: "/db/_revs_diff")
        var body: [UInt8] = Array("{".utf8)
        for index in 0..<int(0..<4) {
            if index > 0 { body += Array(",".utf8) }
            let id = docIDText()
            body += Array("\(Self.jsonString(from: id)):".utf8)
            body += chance(4) ? Array(pick(["5", "\"1-a\"", "null", "{}"]).utf8) : jsonList(of: { generator in Array(generator.revisionJSON().utf8) })
        }
        setJSONBody(&request, chance(4) ? hostileJSON() : body + Array("}".utf8))
        return request
    }

    private mutating func find() -> FuzzRequest {
        var request = FuzzRequest(method: pick(["POST", "POST", "GET"]), target: Array("/\(db())/_find".utf8), endpoint: "/db/_find")
        let selector = pick([
            "{\"name\":{\"$gt\":null}}", "{\"$or\":[]}", "{\"$and\":5}", "{\"n\":{\"$in\":7}}", "{\"n\":{\"$regex\":\"(\"}}",
            "{\"n\":{\"$bogus\":1}}", "{\"a.b.c\":{\"$elemMatch\":{\"$gt\":1e400}}}", "{\"n\":{\"$size\":-1}}", "[]", "null",
            "{\"n\":{\"$mod\":[0,1]}}", "{\"n\":{\"$mod\":[-9223372036854775808,-1]}}", "{\"_id\":{\"$gte\":\"\"}}",
        ])
        var body = "{\"selector\":\(selector)"
        if chance(2) { body += ",\"limit\":\(pick(Self.numbers.filter { !$0.isEmpty && !$0.contains(" ") && !$0.contains("%") }))" }
        if chance(3) { body += ",\"skip\":\(pick(["-1", "1e400", "\"2\"", "99999999999999999999", "0"]))" }
        if chance(3) { body += ",\"sort\":\(pick(["[\"name\"]", "[{\"name\":\"up\"}]", "5", "[{}]", "[[]]"]))" }
        if chance(3) { body += ",\"fields\":\(pick(["[\"_id\"]", "[5]", "\"x\"", "[]"]))" }
        if chance(4) { body += ",\"use_index\":\(pick(["\"x\"", "[\"a\",\"b\"]", "5"]))" }
        setJSONBody(&request, chance(5) ? hostileJSON() : Array((body + "}").utf8))
        return request
    }

    private mutating func designDocument() -> FuzzRequest {
        let method = pick(["GET", "PUT", "PUT", "DELETE", "HEAD"])
        var request = FuzzRequest(method: method, target: Array("/\(db())/_design/\(pick(["x", "", "%FF", "y/z"]))".utf8) + query(["rev", "revs"]),
                                  endpoint: "/db/_design/x")
        if method == "PUT" {
            let views = pick(["{\"v\":{\"map\":\"function(doc){emit(doc._id,1)}\"}}", "5", "{\"v\":{\"map\":5}}", "{\"v\":null}", "[]"])
            setJSONBody(&request, chance(3) ? hostileJSON() : Array("{\"language\":\(pick(["\"javascript\"", "\"query\"", "5"])),\"views\":\(views)}".utf8))
        }
        return request
    }

    private mutating func attachment() -> FuzzRequest {
        let method = pick(["GET", "GET", "HEAD", "PUT", "DELETE"])
        let document = fixture.documents.first?.id ?? "doc-0"
        let name = chance(2) ? fixture.attachmentName : pick(["missing.bin", "a/b.txt", "%FF", "_x", String(repeating: "n", count: 300)])
        var request = FuzzRequest(method: method, target: Array("/\(db())/\(chance(4) ? docID() : document)/\(name)".utf8) + query(["rev"]),
                                  endpoint: "attachment")
        if chance(3) { request.headers.append(("Range", Array(pick(["bytes=0-1", "bytes=-5", "bytes=5-1", "bytes=99999999999999999999-", "bytes=x", "items=0-1"]).utf8))) }
        if method == "PUT" {
            request.headers.append(("Content-Type", Array(pick(["text/plain", "", "image/png", "application/json", "text/plain; charset=bogus"]).utf8)))
            request.body = bytes(count: int(0..<256))
        }
        return request
    }

    private mutating func session() -> FuzzRequest {
        let method = pick(["GET", "POST", "POST", "DELETE", "PUT"])
        var request = FuzzRequest(method: method, target: Array("/_session".utf8) + query(["next", "basic"]), endpoint: "/_session")
        if method == "POST" {
            if chance(2) {
                request.headers.append(("Content-Type", Array("application/x-www-form-urlencoded".utf8)))
                request.body = Array(pick(["name=\(fixture.user)&password=\(fixture.password)", "name=&password=", "name=%FF&password=%",
                                           "password=x", "&&&=", "name=\(fixture.user)&password=wrong"]).utf8)
            } else {
                setJSONBody(&request, chance(2) ? hostileJSON()
                    : Array("{\"name\":\(pick(["\"\(fixture.user)\"", "5", "null", "\"\""])),\"password\":\(pick(["\"\(fixture.password)\"", "\"x\"", "[]"]))}".utf8))
            }
        }
        if chance(3) { request.headers.append(("Cookie", Array(pick(["AuthSession=", "AuthSession=garbage", "AuthSession=%FF%FF", "a=b; AuthSession=Zm9vOjEyMzQ6YWJj"]).utf8))) }
        return request
    }

    private mutating func oddPath() -> FuzzRequest {
        var target: [UInt8] = []
        for _ in 0..<int(1..<6) {
            target += Array("/".utf8)
            target += Array(pick(["..", ".", "", "%", "%zz", "%00", "%2F", "%C0%AF", "%FF", "_bogus", "_all_docs", "_design", "_local",
                                  "fuzz-a", "~", "%25", "a;b", "%E2%80%AE", String(repeating: "p", count: 2000)]).utf8)
        }
        if chance(2) { target += Array("?".utf8) + Array(pick(["", "&", "=", "a=%", "a=%FF", "a=1&a=2", "%=%", "limit"]).utf8) }
        var request = FuzzRequest(method: pick(["GET", "PUT", "POST", "DELETE", "HEAD"]), target: target, endpoint: "odd path")
        if chance(4) {
            // Raw bytes HTTP does not allow in a request target.
            target.insert(pick([0x80, 0xFF, 0x00, 0x20, 0x7F, 0x0A] as [UInt8]), at: int(1..<(target.count + 1)))
            request.target = target
            request.hostileFraming = true
        }
        return request
    }

    private mutating func brokenFraming() -> FuzzRequest {
        var request = FuzzRequest(method: "PUT", target: Array("/\(db())/\(docID())".utf8), endpoint: "framing")
        request.hostileFraming = true
        request.body = Array("{\"a\":1}".utf8)
        request.headers.append(("Content-Type", Array("application/json".utf8)))
        if let authorization = authorization() { request.headers.append(("Authorization", authorization)) }
        switch int(0..<9) {
        case 0:
            request.headers.append(("Content-Length", Array(pick(["99999999999", "1000000000000000000000", "4294967296"]).utf8)))
        case 1:
            request.headers.append(("Content-Length", Array(pick(["-1", "abc", "", "1e3", "7, 8", " 7"]).utf8)))
        case 2:
            request.headers.append(("Content-Length", Array("7".utf8)))
            request.headers.append(("Content-Length", Array("8".utf8)))
        case 3:
            request.headers.append(("Transfer-Encoding", Array("chunked".utf8)))
            request.body = Array(pick(["zz\r\n{}\r\n0\r\n\r\n", "7\r\n{\"a\":1}\r\n", "ffffffffffffffffff\r\nx\r\n0\r\n\r\n", "-1\r\n\r\n"]).utf8)
        case 4:
            request.headers.append(("Transfer-Encoding", Array(pick(["gzip", "chunked, identity", "bogus"]).utf8)))
        case 5:
            request.method = pick(["FOO", "G ET", "", "get", "PROPFIND", String(repeating: "M", count: 100)])
        case 6:
            request.headers.append((pick(["X Bad", "", ":", "X-Null"]), [0x61, 0x00, 0x62]))
        case 7:
            request.headers.append(("X-Long", Array(repeating: UInt8(ascii: "h"), count: 200_000)))
        default:
            request.headers.append(("Expect", Array("100-continue".utf8)))
            request.headers.append(("Content-Length", Array("64".utf8)))
        }
        return request
    }

    private mutating func otherDatabaseEndpoint() -> FuzzRequest {
        let endpoint = pick(["_compact", "_ensure_full_commit", "_index", "_explain", "_revs_limit", "_security", "_purge", "_bogus",
                             "_design", "_local", "_design_docs", "_view_cleanup"])
        let method = pick(["GET", "POST", "PUT", "DELETE"])
        var request = FuzzRequest(method: method, target: Array("/\(db())/\(endpoint)".utf8) + query(["limit"]), endpoint: "/db/\(endpoint)")
        if method != "GET" { setJSONBody(&request, chance(2) ? hostileJSON() : Array("{\"index\":{\"fields\":[\"name\"]},\"name\":\"i\"}".utf8)) }
        return request
    }

    // MARK: Pieces

    /// A query string with a few of `names`, each with a hostile value (or none).
    private mutating func query(_ names: [String]) -> [UInt8] {
        guard !names.isEmpty, chance(4) == false || chance(2) else { return [] }
        var out: [UInt8] = []
        for index in 0..<int(1..<4) {
            out += Array((index == 0 ? "?" : "&").utf8) + Array(pick(names).utf8)
            if chance(8) { continue }
            out += Array("=".utf8) + queryValue()
        }
        return out
    }

    /// A query value: a hostile number, JSON (sometimes broken), a revision, percent-encoded or raw.
    private mutating func queryValue() -> [UInt8] {
        let text: [UInt8]
        switch int(0..<5) {
        case 0, 1: text = Array(pick(Self.numbers).utf8)
        case 2: text = hostileJSON(small: true)
        case 3: text = Array(pick(Self.revisionForms + ["all", "[\"1-abc\"]", "[5]", "[\"\(fixture.documents.first?.rev ?? "1-a")\"]"]).utf8)
        default: text = Array(pick(["true", "false", "TRUE", "yes", "\"now\"", "now", "0", "all_docs", "main_only"]).utf8)
        }
        return chance(3) ? text : percentEncoded(text)
    }

    /// `bytes` with everything but unreserved characters percent-encoded.
    private func percentEncoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for byte in bytes {
            if (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "-._~".utf8.contains(byte) {
                out.append(byte)
            } else {
                out += Array(String(format: "%%%02X", byte).utf8)
            }
        }
        return out
    }

    /// JSON text that is valid, broken, deeply nested, holds invalid UTF-8 or huge numbers.
    private mutating func hostileJSON(small: Bool = false) -> [UInt8] {
        switch int(0..<(small ? 6 : 10)) {
        case 0: return Array(pick(["{}", "[]", "null", "5", "\"s\"", "{\"a\":[1,2,{\"b\":null}]}"]).utf8)
        case 1: return Array(pick(["{", "{\"a\":}", "[1,]", "{\"a\" 1}", "tru", "\"unterminated", "{'a':1}", "01", ""]).utf8)
        case 2: return Array(pick(Self.numbers.filter { !$0.isEmpty }).utf8)
        case 3: return [0x22, 0xC3, 0x28, 0x22]
        case 4: return Array("{\"a\":\"".utf8) + [0xED, 0xA0, 0x80, 0xFF] + Array("\"}".utf8)
        case 5: return Array(String(repeating: "[", count: int(10..<600)).utf8)
        case 6: return Array(String(repeating: "[", count: 100_000).utf8)
        case 7: return Array((String(repeating: "{\"a\":", count: 3_000) + "1" + String(repeating: "}", count: 3_000)).utf8)
        case 8: return Array("[\(String(repeating: "9", count: 5_000)), -\(String(repeating: "9", count: 400))e99999]".utf8)
        default: return documentBody()
        }
    }

    /// A document body with hostile `_id`, `_rev`, `_revisions`, `_deleted` and `_attachments`.
    private mutating func documentBody() -> [UInt8] {
        var members: [String] = []
        if chance(2) {
            let id = docIDText()
            members.append("\"_id\":\(chance(5) ? pick(["5", "null", "[]"]) : Self.jsonString(from: id))")
        }
        if chance(2) { members.append("\"_rev\":\(revisionJSON())") }
        if chance(3) {
            let start = pick(Self.numbers.filter { !$0.isEmpty && !$0.contains(" ") && !$0.contains("%") })
            let ids = pick(["[\"abc\"]", "[]", "[5]", "[\"a\",\"a\"]", "\"abc\"", "[\"" + String(repeating: "z", count: 1_000) + "\"]",
                            "[" + Array(repeating: "\"f\"", count: 2_000).joined(separator: ",") + "]"])
            members.append("\"_revisions\":\(chance(6) ? pick(["5", "[]", "null"]) : "{\"start\":\(start),\"ids\":\(ids)}")")
        }
        if chance(4) { members.append("\"_deleted\":\(pick(["true", "\"yes\"", "1", "null"]))") }
        if chance(4) {
            let attachment = pick([
                "{\"content_type\":\"text/plain\",\"data\":\"aGVsbG8=\"}", "{\"data\":\"!!!not base64\"}", "{\"stub\":true}",
                "{\"stub\":true,\"digest\":\"md5-x\",\"revpos\":\(pick(Self.numbers.filter { !$0.isEmpty && !$0.contains(" ") && !$0.contains("%") }))}",
                "{\"follows\":true,\"length\":-1}", "5", "{\"data\":5}", "{\"content_type\":7,\"data\":\"\"}",
            ])
            let name = pick(["a.txt", "", "_x", "a/b"])
            members.append("\"_attachments\":{\(Self.jsonString(from: name)):\(attachment)}")
        }
        if chance(4) { members.append("\"_conflicts\":[\"1-a\"],\"_bogus\":1") }
        if chance(2) { members.append("\"name\":\(pick(["\"Soup\"", "1e400", "-0", "99999999999999999999", "[[[[[[]]]]]]", "\"\\ud800\""]))") }
        var body = Array("{".utf8) + Array(members.joined(separator: ",").utf8)
        if chance(10) { body += Array(",\"raw\":\"".utf8) + [0xFF, 0xFE] + Array("\"".utf8) }
        return body + Array("}".utf8)
    }

    /// A JSON array of one to four items from `item`.
    private mutating func jsonList(of item: (inout HostileRequestGenerator) -> [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("[".utf8)
        for index in 0..<int(0..<5) {
            if index > 0 { out += Array(",".utf8) }
            out += item(&self)
        }
        return out + Array("]".utf8)
    }

    /// A revision as JSON: a real one, a hostile string, or not a string.
    private mutating func revisionJSON() -> String {
        if chance(6) { return pick(["5", "null", "[]", "{}", "-1"]) }
        return Self.jsonString(from: chance(3) ? pick(fixture.documents.map(\.rev)) : pick(Self.revisionForms))
    }

    /// A document ID as it appears in a path: existing, new, design or local, odd or encoded.
    private mutating func docID() -> String {
        chance(2) ? pick(fixture.documents.map(\.id)) : pick([
            "new-\(int(0..<50))", "_design/x", "_local/x", "_bogus", "%2F", "a%2Fb", "%FF", "%", "caf%C3%A9", "..", "%20",
            String(repeating: "i", count: 1_000), "_design%2Fx", "_all_docs",
        ])
    }

    /// A document ID as it appears in a JSON body.
    private mutating func docIDText() -> String {
        chance(2) ? pick(fixture.documents.map(\.id)) : pick(["new-\(int(0..<50))", "", "_design/x", "_local/x", "_bogus", "é", "\u{0}", " "])
    }

    /// A database from the fixture (mostly) or one that is missing or badly named.
    private mutating func db() -> String {
        chance(8) ? pick(["missing", "Bad", "_users", "%FF", "a%2Fb", "", "%"]) : pick(fixture.databases)
    }

    /// Credentials: right (mostly), missing, wrong or malformed.
    private mutating func authorization() -> [UInt8]? {
        let good = Data("\(fixture.user):\(fixture.password)".utf8).base64EncodedString()
        switch int(0..<20) {
        case 0..<13: return Array("Basic \(good)".utf8)
        case 13..<15: return nil
        case 15: return Array("Basic \(Data("\(fixture.user):wrong".utf8).base64EncodedString())".utf8)
        case 16: return Array(pick(["Basic", "Basic ", "Basic !!!", "Basic \(Data("nocolon".utf8).base64EncodedString())", "Basic ====",
                                    "basic \(good)"]).utf8)
        case 17: return Array(pick(["Bearer x", "Digest a=b", "", "Basic " + String(repeating: "A", count: 10_000)]).utf8)
        case 18: return Array("Basic ".utf8) + Array(Data([0xFF, 0x3A, 0xFE]).base64EncodedString().utf8)
        default: return Array("Basic \(good), Basic \(good)".utf8)
        }
    }

    /// One more header with an odd value.
    private mutating func oddHeader() -> (name: String, value: [UInt8]) {
        pick([
            ("Accept", Array("application/xml".utf8)), ("Accept", Array("*/*;q=bogus".utf8)), ("Origin", Array("null".utf8)),
            ("X-Couch-Full-Commit", Array("maybe".utf8)), ("Content-Type", Array("application/json; charset=latin1".utf8)),
            ("Content-Type", Array("text/plain".utf8)), ("Accept-Encoding", Array("gzip;q=2".utf8)),
            ("Host", Array(pick(["evil.example", "", "127.0.0.1:99999", "[::1", "127.0.0.1"]).utf8)),
            ("X-Bytes", [0xC3, 0x28, 0xFF]), ("If-Match", Array("\"1-abc\"".utf8)),
        ])
    }

    /// Sets a JSON body, usually with a JSON content type, sometimes an odd one.
    private mutating func setJSONBody(_ request: inout FuzzRequest, _ body: [UInt8]) {
        request.body = body
        let type = chance(5) ? pick(["", "text/plain", "application/json; charset=utf-16", "application/x-www-form-urlencoded",
                                     "multipart/related", "application/jsonx", "APPLICATION/JSON"]) : "application/json"
        if !type.isEmpty { request.headers.append(("Content-Type", Array(type.utf8))) }
    }

    /// A JSON string literal for `text`: quotes, backslashes and control characters escaped.
    private static func jsonString(from text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case let s where s.value < 0x20: out += String(format: "\\u%04x", s.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private mutating func bytes(count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) } }
    private mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ oneIn: Int) -> Bool { Int.random(in: 0..<oneIn, using: &random) == 0 }
    private mutating func pick<T>(_ items: [T]) -> T { items[Int.random(in: 0..<items.count, using: &random)] }
}
