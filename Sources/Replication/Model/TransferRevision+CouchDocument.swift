import CouchProtocol
import DocumentStore
import Foundation
import DocumentFormat

/// A revision in transit in CouchDB's document JSON, through the codec the server shares.
extension TransferRevision {
    /// Reads a document as `_bulk_get` and `open_revs` return it (with `revs=true`); its
    /// `follows` attachments must already carry their parts' bytes
    /// (``CouchDocument/attachFollowingParts(_:)``).
    /// - Throws: ``CouchError`` when the document is malformed or lacks its revision.
    init(_ document: CouchDocument) throws(CouchError) {
        let revision = try document.replicatedRevision()
        var attachments: [String: AttachmentPayload] = [:]
        attachments.reserveCapacity(revision.attachments.count)
        for (name, attachment) in revision.attachments {
            switch attachment {
            case .data(let contentType, let data, let revpos):
                attachments[name] = .data(contentType: contentType, data: data, revpos: revpos)
            case .stub(let info):
                attachments[name] = .stub(info)
            }
        }
        self.init(id: revision.id, rev: revision.rev, deleted: revision.deleted, body: revision.body,
                  history: revision.history, attachments: attachments)
    }

    /// The attachments whose bytes follow the JSON part of a multipart upload, in part order.
    var followingAttachmentNames: [String] {
        attachments.keys.sorted().filter {
            if case .stub = attachments[$0]! { return false }
            return true
        }
    }

    /// Appends the revision as a `new_edits=false` document: body, `_revisions`, and the
    /// attachments as stubs, or with their bytes either inline (base64, streamed from the
    /// store for deferred ones) or, with `attachmentsFollow`, marked `"follows": true` with
    /// their length and digest for the parts of a `multipart/related` upload, in the order of
    /// ``followingAttachmentNames``.
    /// - Throws: `DocumentStoreError` when the local store fails or lacks an attachment's bytes.
    func appendDocument(attachmentsFollow: Bool, to buffer: inout [UInt8]) throws {
        var members = CouchDocumentEncoder.members(id: id, rev: rev, deleted: deleted, body: body)
        members["_revisions"] = CouchDocumentEncoder.revisions(rev: rev, history: history)
        var outgoing: [String: OutgoingAttachment] = [:]
        for (name, payload) in attachments {
            switch payload {
            case .stub(let info):
                outgoing[name] = .stub(info)
            case .data(let contentType, let data, let revpos) where attachmentsFollow:
                outgoing[name] = .follows(AttachmentInfo(contentType: contentType, length: data.count,
                                                         digest: RevisionHasher.attachmentDigest(data), revpos: revpos))
            case .data(let contentType, let data, let revpos):
                outgoing[name] = .inline(contentType: contentType, revpos: revpos, digest: nil, data: data)
            case .deferred(let info, _) where attachmentsFollow:
                outgoing[name] = .follows(info)
            case .deferred(let info, let store):
                outgoing[name] = .inlineStreamed(info, from: store)
            }
        }
        try CouchDocumentEncoder.append(members, attachments: outgoing, to: &buffer)
    }
}
