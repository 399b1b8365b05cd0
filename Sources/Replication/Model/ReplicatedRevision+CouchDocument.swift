import CouchProtocol
import Foundation
import DocumentFormat

/// A revision on its way to a server, in CouchDB's document JSON, through the codec the
/// server shares.
extension ReplicatedRevision {
    /// Bytes of attachment content this revision will send, whether held or read on demand.
    var attachmentBytesToSend: Int {
        attachments.values.reduce(0) { total, attachment in
            switch attachment {
            case .data(_, let data, _): return total + data.count
            case .deferred(let info, _): return total + info.length
            case .stub: return total
            }
        }
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
        for (name, attachment) in attachments {
            switch attachment {
            case .stub(let info):
                outgoing[name] = .stub(info)
            case .data(let contentType, let data, let revpos) where attachmentsFollow:
                outgoing[name] = .follows(AttachmentInfo(contentType: contentType, length: data.count,
                                                         digest: RevisionHasher.attachmentDigest(data), revpos: revpos))
            case .data(let contentType, let data, let revpos):
                outgoing[name] = .inline(contentType: contentType, revpos: revpos, digest: nil, data: data)
            case .deferred(let info, _) where attachmentsFollow:
                outgoing[name] = .follows(info)
            case .deferred(let info, let source):
                outgoing[name] = .inlineStreamed(info, from: source)
            }
        }
        try CouchDocumentEncoder.append(members, attachments: outgoing, to: &buffer)
    }
}
