public import DocumentStore
import DocumentFormat

/// Copies documents between two stores as a replication of just those documents would: every
/// leaf with its history and attachments, inserted as replicated revisions. Tests use it to
/// make a replica hold some documents and not others (a pull cut short), or to carry a
/// conflict from one store to another.
public enum DocumentCopy {
    /// Copies document `id` from `source` into `target`.
    public static func copy(_ id: String, from source: DocumentStore, to target: DocumentStore) throws {
        var revisions: [ReplicatedRevision] = []
        for leaf in try source.leafRevisions(id: id) {
            var attachments: [String: ReplicatedAttachment] = [:]
            for (name, info) in leaf.attachments {
                guard let data = try source.attachment(id: id, rev: leaf.rev, name: name)?.data else {
                    throw DocumentStoreError.notFound(id: "\(id) \(leaf.rev) attachment \(name)")
                }
                attachments[name] = .data(contentType: info.contentType, data: data, revpos: info.revpos)
            }
            revisions.append(ReplicatedRevision(id: id, rev: leaf.rev, deleted: leaf.deleted, body: leaf.body,
                                                history: try source.history(id: id, rev: leaf.rev), attachments: attachments))
        }
        try target.insertRevisions(revisions)
    }
}
