import DocumentStore
import Foundation
import Testing
import DocumentFormat

/// Revision generations are held to `1...RevisionID.maximumGeneration`: text past it does
/// not parse, replicated revisions past it are refused, and a revision at the limit can be
/// stored but not edited, so no edit can overflow.
@Suite struct RevisionGenerationLimitTests {
    static let top = RevisionID.maximumGeneration

    @Test func parsingRefusesGenerationsOutsideTheRange() {
        #expect(RevisionID("9223372036854775807-abc") == nil)
        #expect(RevisionID("\(Self.top + 1)-abc") == nil)
        #expect(RevisionID("0-abc") == nil)
        #expect(RevisionID("-1-abc") == nil)
        #expect(RevisionID("\(Self.top)-abc") == RevisionID(generation: Self.top, hash: "abc"))
    }

    @Test func childGenerationStopsAtTheLimit() throws {
        #expect(try RevisionID(generation: 1, hash: "a").childGeneration() == 2)
        #expect(try RevisionID(generation: Self.top - 1, hash: "a").childGeneration() == Self.top)
        #expect(throws: DocumentFormatError.self) { try RevisionID(generation: Self.top, hash: "a").childGeneration() }
        #expect(throws: DocumentFormatError.self) { try RevisionID(generation: Int.max, hash: "a").childGeneration() }
        #expect(throws: DocumentFormatError.self) {
            try RevisionHasher.revisionID(parent: RevisionID(generation: Int.max, hash: "a"), deleted: false,
                                          body: [:], attachments: [:])
        }
    }

    @Test func replicatedRevisionsPastTheLimitAreRefusedAndTheLimitItselfCannotBeEdited() throws {
        let (store, directory) = try makeStore()
        _ = directory
        let poisoned = RevisionID(generation: Int.max, hash: "abc")
        let refusals = try store.insertRevisionsReportingRefusals([ReplicatedRevision(id: "ovf", rev: poisoned, body: ["a": 1])])
        #expect(refusals.map(\.id) == ["ovf"])
        #expect(try store.get(id: "ovf") == nil)

        let top = RevisionID(generation: Self.top, hash: "abc")
        try store.insertRevisions([ReplicatedRevision(id: "top", rev: top, body: ["a": 1])])
        #expect(try store.get(id: "top")?.rev == top)
        #expect(throws: DocumentStoreError.self) { try store.update(id: "top", parent: top, body: ["a": 2]) }
        #expect(throws: DocumentStoreError.self) { try store.delete(id: "top", parent: top) }
        #expect(try store.get(id: "top")?.body == ["a": 1])

        // A pulled revision at the limit beats a local edit in a conflict, and still the
        // losing side's edits and the winner's reads work without a trap.
        let local = try store.create(id: "pair", body: ["side": "local"])
        try store.insertRevisions([ReplicatedRevision(id: "pair", rev: RevisionID(generation: Self.top, hash: "ff"),
                                                      body: ["side": "remote"])])
        #expect(try store.get(id: "pair")?.body == ["side": "remote"])
        _ = try store.update(id: "pair", parent: local.rev, body: ["side": "local 2"])
    }
}
