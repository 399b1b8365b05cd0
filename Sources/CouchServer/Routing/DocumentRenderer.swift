import CouchProtocol
import DocumentStore
import Foundation
import DocumentFormat

/// Turns stored revisions into CouchDB's document JSON, honouring the read options a client
/// asks for (`revs`, `revs_info`, `conflicts`, `attachments`, `atts_since`).
struct DocumentRenderer: Sendable {
    /// Add `_revisions` (the ancestry).
    var revs = false
    /// Add `_revs_info` (the ancestry with availability).
    var revsInfo = false
    /// Add `_conflicts` (other live leaves).
    var conflicts = false
    /// Add `_deleted_conflicts` (other deleted leaves).
    var deletedConflicts = false
    /// Include attachment bytes instead of stubs.
    var attachments = false
    /// With `attachments`, include bytes only for attachments changed after these revisions.
    var attsSince: [RevisionID] = []
    /// With `attachments`, mark bytes as `follows` (sent in multipart parts) instead of inline base64.
    var attachmentsFollow = false

    /// A rendered document and the attachments whose bytes must follow it in multipart parts.
    struct Rendered: Sendable {
        var json: JSONObject
        var following: [(name: String, info: AttachmentInfo)]
    }

    /// Renders `revision` of a document in `store`; `history`, when the caller already read
    /// the revision's ancestry, saves reading it again.
    func render(_ revision: DocumentRevision, store: some DocumentStoreReading, history known: [RevisionID]? = nil) throws -> Rendered {
        var json = CouchDocumentEncoder.members(id: revision.id, rev: revision.rev, deleted: revision.deleted, body: revision.body)
        var following = [(name: String, info: AttachmentInfo)]()
        var history: [RevisionID]? = known.map { $0.isEmpty ? [revision.rev] : $0 }
        func ancestry() throws -> [RevisionID] {
            if let history { return history }
            let loaded = try store.history(id: revision.id, rev: revision.rev)
            history = loaded.isEmpty ? [revision.rev] : loaded
            return history!
        }
        if !revision.attachments.isEmpty {
            var sincePosition = 0
            if attachments, !attsSince.isEmpty {
                let known = Set(try ancestry())
                sincePosition = attsSince.filter(known.contains).map(\.generation).max() ?? 0
            }
            var entries = JSONObject()
            for (name, info) in revision.attachments.sorted(by: { $0.key < $1.key }) {
                let attachment: OutgoingAttachment
                if attachments, info.revpos > sincePosition {
                    if attachmentsFollow {
                        attachment = .follows(info)
                        following.append((name, info))
                    } else {
                        guard let data = try store.attachmentData(digest: info.digest) else {
                            throw CouchError(status: 500, error: "internal_server_error",
                                             reason: "Attachment \(name) has no stored data")
                        }
                        attachment = .inline(contentType: info.contentType, revpos: info.revpos, digest: info.digest, data: data)
                    }
                } else {
                    attachment = .stub(info)
                }
                entries[name] = .object(CouchDocumentEncoder.entry(attachment))
            }
            json["_attachments"] = .object(entries)
        }
        if revs {
            json["_revisions"] = CouchDocumentEncoder.revisions(rev: revision.rev, history: try ancestry())
        }
        if revsInfo {
            var infos = [JSONValue]()
            for rev in try ancestry() {
                let stored = rev == revision.rev ? revision : try store.get(id: revision.id, rev: rev)
                let status = stored == nil ? "missing" : (stored!.deleted ? "deleted" : "available")
                infos.append(.object(["rev": .string(rev.description), "status": .string(status)]))
            }
            json["_revs_info"] = .array(infos)
        }
        if conflicts || deletedConflicts {
            let leaves = try store.leafRevisions(id: revision.id).filter { $0.rev != revision.rev }
            if conflicts {
                let live = leaves.filter { !$0.deleted }.map { JSONValue.string($0.rev.description) }
                if !live.isEmpty { json["_conflicts"] = .array(live) }
            }
            if deletedConflicts {
                let dead = leaves.filter(\.deleted).map { JSONValue.string($0.rev.description) }
                if !dead.isEmpty { json["_deleted_conflicts"] = .array(dead) }
            }
        }
        return Rendered(json: json, following: following)
    }
}
