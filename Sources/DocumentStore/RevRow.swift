import Foundation

/// A revision's row in a document's tree.
struct RevRow: Sendable {
    let revNum: Int64
    let rev: RevisionID
    let parent: Int64?
    let deleted: Bool
    let leaf: Bool
    let body: Data?
    let atts: Data?
}
