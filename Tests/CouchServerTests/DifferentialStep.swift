import DocumentStore
import Foundation
import InteropSupport
import DocumentFormat

/// One request of a differential run, sent alike to our server and to CouchDB, and how its
/// two replies are compared.
struct DifferentialStep: Sendable, CustomStringConvertible {
    /// How much of the reply must agree.
    enum Comparison: Sendable {
        /// Status and the normalised JSON body, exactly.
        case exact
        /// Status, and the members CouchDB sends are there with the same kinds of value.
        case shape
        /// Status, and these members of the JSON object equal after normalising.
        case members([String])
        /// Status and the framing of a multipart body (``MultipartFraming``), then each part.
        case multipart
        /// Status and the raw body bytes.
        case bytes
        /// Status only.
        case status
        /// A changes feed of a sharded CouchDB, whose order across shards is its own: the
        /// rows compared as a set (by ID), `pending` left out.
        case changesAsSet
        /// Status and how many elements the array member holds.
        case count(String)
    }

    var method: String
    /// The path with its query; `{db}` is the database of the run, `{name}` a captured value.
    var path: String
    var headers: [String: String] = [:]
    var body: JSONValue?
    var rawBody: Data?
    var comparison: Comparison = .exact
    /// Values to remember from this reply's JSON object: variable name → member name.
    var captures: [String: String] = [:]

    var description: String { "\(method) \(path)" }

    /// A step with a JSON body (or none).
    static func json(_ method: String, _ path: String, _ body: JSONValue? = nil, _ comparison: Comparison = .exact,
                     headers: [String: String] = [:], capture: [String: String] = [:]) -> DifferentialStep {
        DifferentialStep(method: method, path: path, headers: headers, body: body, comparison: comparison, captures: capture)
    }
}

/// Rewrites what legitimately differs between two CouchDB-compatible servers so their replies
/// can be compared: the database name, revision IDs each server generated (numbered in the
/// order they first appear, so the same write on both sides gets the same name), sequences
/// and server-chosen UUIDs.
struct ReplyNormaliser {
    let database: String
    private var aliases: [String: String] = [:]
    /// Revisions the test wrote itself (same on both servers): left as they are.
    let fixedRevisions: Set<String>

    private let fixedHashes: Set<String>

    init(database: String, fixedRevisions: Set<String>) {
        self.database = database
        self.fixedRevisions = fixedRevisions
        fixedHashes = Set(fixedRevisions.map { Self.split($0).1 })
    }

    private static let sequenceMembers: Set<String> = ["seq", "last_seq", "update_seq", "purge_seq", "since"]

    mutating func normalise(_ value: JSONValue, member: String? = nil) -> JSONValue {
        switch value {
        case .string(let text):
            if let member, Self.sequenceMembers.contains(member) { return "<seq>" }
            if member == "bookmark" { return "<bookmark>" }
            if Self.isRevision(text), !fixedRevisions.contains(text) { return .string(alias(text, prefix: "rev")) }
            if member == "id" || member == "_id", Self.isUUID(text) { return .string(alias(text, prefix: "uuid")) }
            return .string(text.replacingOccurrences(of: database, with: "{db}"))
        case .int where member.map(Self.sequenceMembers.contains) == true:
            return "<seq>"
        case .array(let items):
            if member == "ids" {
                // `_revisions.ids`: bare revision hashes, newest first.
                return .array(items.map { item in
                    guard let hash = item.stringValue, !fixedHashes.contains(hash) else { return item }
                    return .string(alias(hash, prefix: "rev"))
                })
            }
            return .array(items.map { normalise($0, member: member == "_conflicts" || member == "_deleted_conflicts" ? member : nil) })
        case .object(let object):
            var result: JSONObject = [:]
            for (key, item) in object {
                result[key] = normalise(item, member: key)
            }
            return .object(result)
        default:
            return value
        }
    }

    private mutating func alias(_ text: String, prefix: String) -> String {
        let (generation, hash) = Self.split(text)
        if let known = aliases[hash] { return generation.map { "\($0)-\(known)" } ?? known }
        let name = "\(prefix)#\(aliases.count + 1)"
        aliases[hash] = name
        return generation.map { "\($0)-\(name)" } ?? name
    }

    private static func split(_ text: String) -> (String?, String) {
        guard let dash = text.firstIndex(of: "-"), isRevision(text) else { return (nil, text) }
        return (String(text[..<dash]), String(text[text.index(after: dash)...]))
    }

    static func isRevision(_ text: String) -> Bool {
        guard let dash = text.firstIndex(of: "-"), dash != text.startIndex else { return false }
        let hash = text[text.index(after: dash)...]
        return text[..<dash].allSatisfy(\.isNumber) && hash.count == 32 && hash.allSatisfy(\.isHexDigit)
    }

    static func isUUID(_ text: String) -> Bool {
        text.count == 32 && text.allSatisfy(\.isHexDigit)
    }
}
