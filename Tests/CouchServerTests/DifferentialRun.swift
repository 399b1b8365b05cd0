import DocumentStore
import Foundation
import InteropSupport
import DocumentFormat

/// Sends the same requests, in the same order, to two CouchDB-compatible servers (ours and a
/// live CouchDB), each in a database of its own, and lists where their replies differ after
/// normalising what legitimately differs (``ReplyNormaliser``).
struct DifferentialRun {
    /// One server of the run.
    struct Side {
        var label: String
        var client: HTTPTestClient
        var auth: [String: String]
        var database: String
        var variables: [String: String] = [:]
        var normaliser: ReplyNormaliser

        init(label: String, client: HTTPTestClient, auth: [String: String], database: String, fixedRevisions: Set<String>) {
            self.label = label
            self.client = client
            self.auth = auth
            self.database = database
            normaliser = ReplyNormaliser(database: database, fixedRevisions: fixedRevisions)
        }

        /// `text` with `{db}` and the captured `{name}`s filled in.
        func fill(_ text: String) -> String {
            var filled = text.replacingOccurrences(of: "{db}", with: database)
            for (name, value) in variables { filled = filled.replacingOccurrences(of: "{\(name)}", with: value) }
            return filled
        }

        mutating func send(_ step: DifferentialStep) async throws -> HTTPReply {
            var headers = auth.merging(step.headers.mapValues(fill)) { $1 }
            var body = step.rawBody
            if let json = step.body {
                let text = String(decoding: try JSONEncoder().encode(json), as: UTF8.self)
                body = Data(fill(text).utf8)
                headers["Content-Type"] = headers["Content-Type"] ?? "application/json"
            }
            let reply = try await client.send(step.method, fill(step.path), headers: headers, body: body)
            if let object = try? reply.json().objectValue {
                for (variable, member) in step.captures {
                    if let value = object[member]?.stringValue { variables[variable] = value }
                }
            }
            return reply
        }
    }

    /// Runs `steps` on both sides and returns one line per difference, prefixed by the step.
    static func differences(_ steps: [DifferentialStep], ours: inout Side, couch: inout Side) async throws -> [(step: String, difference: String)] {
        var found: [(String, String)] = []
        for step in steps {
            let mine = try await ours.send(step)
            let theirs = try await couch.send(step)
            for line in compare(step, mine, theirs, ours: &ours, couch: &couch) { found.append((step.description, line)) }
        }
        return found
    }

    private static func text(_ body: Data) -> String {
        String(decoding: body.prefix(600), as: UTF8.self)
    }

    private static func compare(_ step: DifferentialStep, _ mine: HTTPReply, _ theirs: HTTPReply,
                                ours: inout Side, couch: inout Side) -> [String] {
        guard mine.status == theirs.status else {
            return ["status \(mine.status) instead of CouchDB's \(theirs.status); ours: \(text(mine.body)) CouchDB: \(text(theirs.body))"]
        }
        switch step.comparison {
        case .status:
            return []
        case .bytes:
            return mine.body == theirs.body ? [] : ["body \(text(mine.body)) instead of CouchDB's \(text(theirs.body))"]
        case .multipart:
            let ourType = mine.header("Content-Type") ?? "", theirType = theirs.header("Content-Type") ?? ""
            guard let ourFrame = try? MultipartFraming.skeleton(mine.body, contentType: ourType),
                  let theirFrame = try? MultipartFraming.skeleton(theirs.body, contentType: theirType) else {
                return ["not multipart: ours \(ourType), CouchDB's \(theirType)"]
            }
            guard ourFrame == theirFrame else { return ["multipart framing \(ourFrame.debugDescription) instead of CouchDB's \(theirFrame.debugDescription)"] }
            let ourParts = (try? MultipartTestParser.attachmentParts(mine.body, contentType: ourType))
            let theirParts = (try? MultipartTestParser.attachmentParts(theirs.body, contentType: theirType))
            var lines: [String] = []
            if ourParts?.attachments != theirParts?.attachments { lines.append("multipart attachment bytes differ") }
            let ourJSON = ourParts?.json.map { ours.normaliser.normalise($0) }
            let theirJSON = theirParts?.json.map { couch.normaliser.normalise($0) }
            if ourJSON != theirJSON { lines.append("multipart document \(String(describing: ourJSON)) instead of CouchDB's \(String(describing: theirJSON))") }
            return lines
        case .count(let member):
            let mine = (try? mine.json().objectValue?[member]?.arrayValue?.count) ?? nil
            let theirs = (try? theirs.json().objectValue?[member]?.arrayValue?.count) ?? nil
            return mine == theirs ? [] : ["\(member): \(String(describing: mine)) elements instead of CouchDB's \(String(describing: theirs))"]
        case .exact, .shape, .members, .changesAsSet:
            guard let ourJSON = try? mine.json(), let theirJSON = try? theirs.json() else {
                return (try? theirs.json()) == nil ? [] : ["not JSON: \(text(mine.body))"]
            }
            var a = ours.normaliser.normalise(ourJSON), b = couch.normaliser.normalise(theirJSON)
            switch step.comparison {
            case .changesAsSet:
                a = Self.unordered(a)
                b = Self.unordered(b)
                return a == b ? [] : ["changes \(describe(a)) instead of CouchDB's \(describe(b))"]
            case .shape:
                return Shape.differences(a, b)
            case .members(let names):
                return names.compactMap { name in
                    a.objectValue?[name] == b.objectValue?[name] ? nil
                        : "\(name): \(describe(a.objectValue?[name])) instead of CouchDB's \(describe(b.objectValue?[name]))"
                }
            default:
                return a == b ? [] : ["body \(describe(a)) instead of CouchDB's \(describe(b))"]
            }
        }
    }

    /// A changes reply with its rows sorted by ID and without `pending`.
    private static func unordered(_ value: JSONValue) -> JSONValue {
        guard var object = value.objectValue else { return value }
        object["pending"] = nil
        let rows = object["results"]?.arrayValue ?? []
        object["results"] = .array(rows.sorted { ($0.objectValue?["id"]?.stringValue ?? "") < ($1.objectValue?["id"]?.stringValue ?? "") })
        return .object(object)
    }

    private static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        return String(decoding: JSONWriter.couchDB.data(value), as: UTF8.self)
    }
}
