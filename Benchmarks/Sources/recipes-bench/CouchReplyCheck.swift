import DocumentStore
import Foundation
import DocumentFormat

/// Judges whether what came back for a fuzz request is a reply CouchDB could have given:
/// a 2xx whose body matches its content type (JSON that parses, multipart with its boundary,
/// an attachment's bytes), a 304, or an error status whose body is `{"error":…,"reason":…}`.
enum CouchReplyCheck {
    /// The judgement on one exchange.
    enum Verdict {
        /// A CouchDB-shaped reply with this status.
        case couch(status: Int)
        /// Hostile framing refused by the HTTP layer: a bodiless 400, or the connection
        /// closed without a reply.
        case refusedFraming
        /// A feed still open at the deadline, its status line and headers well formed.
        case heldOpen
        /// No connection could be made, or it was reset: the server may be gone.
        case unreachable
        /// Anything else, with the reason.
        case malformed(String)
    }

    /// A parsed HTTP response.
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    static func verdict(for request: FuzzRequest, _ exchange: RawHTTPClient.Exchange) -> Verdict {
        if exchange.connectFailed { return .unreachable }
        if exchange.bytes.isEmpty {
            if exchange.reset || !exchange.timedOut, request.hostileFraming { return .refusedFraming }
            if exchange.reset { return .unreachable }
            return .malformed(exchange.timedOut ? "no reply before the deadline" : "connection closed without a reply")
        }
        let reply: Reply
        switch parse(exchange.bytes, complete: !exchange.timedOut, head: request.method == "HEAD") {
        case .success(let parsed): reply = parsed
        case .failure(let problem):
            if exchange.timedOut, request.mayHoldOpen, case .incompleteBody = problem { return .heldOpen }
            return .malformed(problem.description)
        }
        if exchange.timedOut && !request.mayHoldOpen { return .malformed("status \(reply.status) but the reply never ended") }
        if request.hostileFraming, reply.status == 400, reply.body.isEmpty { return .refusedFraming }
        return judge(reply, for: request, heldOpen: exchange.timedOut)
    }

    /// Checks status, content type and body of a complete (or, for feeds, still open) reply.
    static func judge(_ reply: Reply, for request: FuzzRequest, heldOpen: Bool) -> Verdict {
        let type = reply.headers["content-type"]?.lowercased() ?? ""
        let isHead = request.method == "HEAD"
        switch reply.status {
        case 200..<300:
            // An attachment comes back with its own content type and bytes.
            if request.isAttachmentPath, !heldOpen { return .couch(status: reply.status) }
            if isHead || reply.body.isEmpty && (reply.status == 204 || heldOpen) { return .couch(status: reply.status) }
            if type.hasPrefix("application/json") {
                // A longpoll reply is one JSON object; a continuous feed is one per line.
                if request.mayHoldOpen, (try? JSONValue.parse(Data(reply.body))) == nil, !jsonLines(reply.body) {
                    return .malformed("\(reply.status) JSON feed that is neither one JSON value nor JSON lines")
                }
                if !request.mayHoldOpen, (try? JSONValue.parse(Data(reply.body))) == nil {
                    return .malformed("\(reply.status) application/json body that does not parse: \(preview(reply.body))")
                }
                return heldOpen ? .heldOpen : .couch(status: reply.status)
            }
            if heldOpen { return .heldOpen }
            if type.hasPrefix("multipart/") {
                guard let boundary = boundary(in: reply.headers["content-type"] ?? ""), !boundary.isEmpty,
                      reply.body.count >= boundary.utf8.count,
                      String(decoding: reply.body, as: UTF8.self).contains("--" + boundary) else {
                    return .malformed("\(reply.status) \(type) whose body lacks its boundary")
                }
                return .couch(status: reply.status)
            }
            if type.hasPrefix("text/event-stream") { return heldOpen ? .heldOpen : .couch(status: reply.status) }
            return .malformed("\(reply.status) with content type \"\(type)\": \(preview(reply.body))")
        case 304:
            return .couch(status: 304)
        case 400..<600:
            if isHead { return .couch(status: reply.status) }
            guard type.hasPrefix("application/json"),
                  case .object(let members)? = try? JSONValue.parse(Data(reply.body)),
                  members["error"]?.stringValue != nil, members["reason"]?.stringValue != nil else {
                return .malformed("\(reply.status) (\(type.isEmpty ? "no content type" : type)) without {error, reason}: \(preview(reply.body))")
            }
            return .couch(status: reply.status)
        default:
            return .malformed("unexpected status \(reply.status)")
        }
    }

    /// Why the bytes are not an HTTP response.
    enum ParseProblem: Error, CustomStringConvertible {
        case noHead, badStatusLine(String), badHeader(String), badChunk, incompleteBody, lengthMismatch(Int, Int)

        var description: String {
            switch self {
            case .noHead: "the reply has no complete status line and headers"
            case .badStatusLine(let line): "bad status line \"\(line.prefix(80))\""
            case .badHeader(let line): "bad header line \"\(line.prefix(80))\""
            case .badChunk: "bad chunked encoding"
            case .incompleteBody: "the body ends early"
            case .lengthMismatch(let declared, let actual): "Content-Length \(declared) but \(actual) body bytes"
            }
        }
    }

    /// Splits raw reply bytes into status, headers and body (de-chunked).
    static func parse(_ bytes: [UInt8], complete: Bool, head: Bool) -> Result<Reply, ParseProblem> {
        let separator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
        guard let end = firstIndex(of: separator, in: bytes[...]) else { return .failure(.noHead) }
        let headText = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let statusParts = statusLine.split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), statusParts[1].count == 3,
              let status = Int(statusParts[1]) else { return .failure(.badStatusLine(statusLine)) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { return .failure(.badHeader(line)) }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(bytes[(end + 4)...])
        if head || status == 204 || status == 304 { return .success(Reply(status: status, headers: headers, body: [])) }
        if headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
            guard let decoded = dechunk(body) else { return .failure(complete ? .badChunk : .incompleteBody) }
            body = decoded
        } else if let declared = headers["content-length"].flatMap({ Int($0) }) {
            if body.count < declared { return .failure(.incompleteBody) }
            if body.count != declared { return .failure(.lengthMismatch(declared, body.count)) }
        }
        return .success(Reply(status: status, headers: headers, body: body))
    }

    /// The body of a chunked transfer, or `nil` if it is cut short or malformed.
    static func dechunk(_ bytes: [UInt8]) -> [UInt8]? {
        var out: [UInt8] = []
        var position = 0
        let crlf: [UInt8] = [0x0D, 0x0A]
        while true {
            guard let lineEnd = firstIndex(of: crlf, in: bytes[position...]) else { return nil }
            let sizeText = String(decoding: bytes[position..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else { return nil }
            position = lineEnd + 2
            if size == 0 { return out }
            guard bytes.count - position >= size + 2 else { return nil }
            out += bytes[position..<(position + size)]
            position += size + 2
        }
    }

    /// The `boundary` parameter of a multipart content type, quotes removed, case kept.
    static func boundary(in contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }

    /// Every non-empty line of a feed is JSON.
    static func jsonLines(_ body: [UInt8]) -> Bool {
        body.split(separator: 0x0A).allSatisfy { line in
            let trimmed = line.filter { $0 != 0x0D && $0 != 0x20 }
            return trimmed.isEmpty || (try? JSONValue.parse(Data(trimmed))) != nil
        }
    }

    /// Where `needle` first occurs in `haystack`, as an index of the base array.
    static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var index = haystack.startIndex
        while index + needle.count <= haystack.endIndex {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The first 120 bytes of a body, for a report.
    static func preview(_ body: [UInt8]) -> String {
        let text = String(decoding: body.prefix(120), as: UTF8.self)
        return body.count > 120 ? text + "…" : text
    }
}
