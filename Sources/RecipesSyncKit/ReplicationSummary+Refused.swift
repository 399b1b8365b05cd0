import RecipesKit
import Replication

extension ReplicationSummary {
    /// The documents the run left refused, as records for the sync's report and `status`.
    func refusedDocuments(_ direction: RefusedDocument.Direction) -> [RefusedDocument] {
        outstandingRefusals.map {
            RefusedDocument(id: $0.id, direction: direction, error: $0.error, reason: $0.reason)
        }
    }
}
