import RecipesKit
import Replication

extension ReplicationSummary {
    /// The documents the run left refused, as records for the sync's report and `status`.
    func refusedDocuments(_ direction: RefusedDocument.Direction) -> [RefusedDocument] {
        outstandingRefusals.map { RefusedDocument($0, direction: direction) }
    }
}
