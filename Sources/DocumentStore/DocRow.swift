import Foundation

/// A document's row: its winner and the sequence of its latest change.
struct DocRow: Sendable {
    let docNum: Int64
    let id: String
    let winnerRevNum: Int64
    let deleted: Bool
    let seq: Int64
}
