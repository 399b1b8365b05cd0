public import DocumentStore
public import Foundation
public import DocumentFormat

/// Everything replication must carry, read from a database over CouchDB's HTTP API: every
/// document's leaf revisions (so conflicts show), which documents are deleted, every live
/// leaf's body, and every attachment's type and bytes.
///
/// Read from two servers after a replication, two snapshots are equal exactly when the
/// replication carried everything: same IDs, same revision trees' leaves, same bodies, same
/// attachment bytes. Sequences, which legitimately differ between servers, are left out.
public struct DatabaseSnapshot: Equatable, Sendable, CustomStringConvertible {
    /// Document ID → its leaf revisions, sorted (deleted leaves included).
    public var leaves: [String: [String]] = [:]
    /// The IDs whose winning revision is a deletion.
    public var deleted: Set<String> = []
    /// `id rev` → the body of that live leaf, without the members that describe revisions
    /// (`_id`, `_rev`, `_revisions`, `_attachments`, `_conflicts`).
    public var bodies: [String: JSONValue] = [:]
    /// `id rev name` → the attachment's content type and bytes.
    public var attachments: [String: AttachmentCopy] = [:]

    /// An attachment as the comparison sees it.
    public struct AttachmentCopy: Equatable, Sendable {
        /// Its `content_type`.
        public var contentType: String
        /// Its bytes, fetched on their own (not from a stub's length or digest).
        public var bytes: Data
    }

    /// An empty snapshot, to be filled by hand.
    public init() {}

    /// Reads database `database` through `client` (with `auth` on every request).
    public static func read(_ database: String, client: HTTPTestClient, auth: [String: String]) async throws -> DatabaseSnapshot {
        var snapshot = DatabaseSnapshot()
        let changes = try await client.send("GET", "/\(database)/_changes?style=all_docs", headers: auth)
        guard changes.status == 200, let rows = try changes.json().objectValue?["results"]?.arrayValue else {
            throw LiveCouchDBError("GET /\(database)/_changes answered \(changes.status): \(String(decoding: changes.body.prefix(500), as: UTF8.self))")
        }
        let json = auth.merging(["Accept": "application/json"]) { $1 }
        for row in rows {
            guard let id = row.objectValue?["id"]?.stringValue else { continue }
            if row.objectValue?["deleted"] == true { snapshot.deleted.insert(id) }
            let path = "/\(database)/\(Self.escaped(id))"
            let reply = try await client.send("GET", path + "?open_revs=all&revs=false", headers: json)
            guard reply.status == 200, let found = try reply.json().arrayValue else {
                throw LiveCouchDBError("GET \(path)?open_revs=all answered \(reply.status): \(String(decoding: reply.body.prefix(500), as: UTF8.self))")
            }
            var revisions: [String] = []
            for entry in found {
                guard let document = entry.objectValue?["ok"]?.objectValue, let rev = document["_rev"]?.stringValue else { continue }
                revisions.append(rev)
                if document["_deleted"] == true { continue }
                var body = document
                for member in ["_id", "_rev", "_revisions", "_attachments", "_conflicts"] { body[member] = nil }
                snapshot.bodies["\(id) \(rev)"] = .object(body)
                for (name, stub) in document["_attachments"]?.objectValue ?? [:] {
                    let attachment = try await client.send("GET", "\(path)/\(Self.escaped(name))?rev=\(rev)", headers: auth)
                    guard attachment.status == 200 else {
                        throw LiveCouchDBError("GET \(path)/\(name)?rev=\(rev) answered \(attachment.status)")
                    }
                    snapshot.attachments["\(id) \(rev) \(name)"] = AttachmentCopy(
                        contentType: stub.objectValue?["content_type"]?.stringValue ?? "", bytes: attachment.body)
                }
            }
            snapshot.leaves[id] = revisions.sorted()
        }
        return snapshot
    }

    /// Reads a local store the same way, so a store can be compared with a server it
    /// replicated with.
    public init(store: DocumentStore) throws {
        _ = try store.forEachChange { change in
            let id = change.id
            if change.deleted { deleted.insert(id) }
            let leafRevisions = try store.leafRevisions(id: id)
            leaves[id] = leafRevisions.map(\.rev.description).sorted()
            for leaf in leafRevisions where !leaf.deleted {
                var body = leaf.body
                for member in ["_id", "_rev", "_revisions", "_attachments", "_conflicts"] { body[member] = nil }
                bodies["\(id) \(leaf.rev)"] = .object(body)
                for name in leaf.attachments.keys {
                    guard let (info, data) = try store.attachment(id: id, rev: leaf.rev, name: name) else {
                        throw LiveCouchDBError("\(id) \(leaf.rev): attachment \(name) has no data in the store")
                    }
                    attachments["\(id) \(leaf.rev) \(name)"] = AttachmentCopy(contentType: info.contentType, bytes: data)
                }
            }
        }
    }

    /// `text` escaped for one path segment (a `/` inside an ID is escaped too).
    public static func escaped(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// How `other` differs from this snapshot, one line per difference (empty when equal).
    public func differences(from other: DatabaseSnapshot) -> [String] {
        var lines: [String] = []
        for id in Set(leaves.keys).union(other.leaves.keys).sorted() where leaves[id] != other.leaves[id] {
            lines.append("\(id): leaves \(leaves[id] ?? []) vs \(other.leaves[id] ?? [])")
        }
        for id in deleted.symmetricDifference(other.deleted).sorted() {
            lines.append("\(id): deleted on one side only")
        }
        for key in Set(bodies.keys).union(other.bodies.keys).sorted() where bodies[key] != other.bodies[key] {
            lines.append("\(key): body differs")
        }
        for key in Set(attachments.keys).union(other.attachments.keys).sorted() where attachments[key] != other.attachments[key] {
            let mine = attachments[key].map { "\($0.contentType) \($0.bytes.count) bytes" } ?? "missing"
            let theirs = other.attachments[key].map { "\($0.contentType) \($0.bytes.count) bytes" } ?? "missing"
            lines.append("\(key): attachment \(mine) vs \(theirs)")
        }
        return lines
    }

    /// A one-line summary: documents, deleted ones, conflicted ones, attachments.
    public var description: String {
        let conflicted = leaves.values.filter { $0.count > 1 }.count
        return "\(leaves.count) documents (\(deleted.count) deleted, \(conflicted) with several leaves), \(attachments.count) attachments"
    }
}
