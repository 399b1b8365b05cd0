import ObjectGraph
import DocumentStore
import Foundation
import InteropSupport
import Testing
@testable import RecipesKit
import RecipesSyncKit
import TestSupport
import DocumentFormat

/// Syncing with a database the original iOS app wrote: its `CDTISMetaData` document (the
/// shape of the recorded CouchDB 3.4.3 traffic, with the store metadata the original
/// incremental store keeps) must come back from a round trip with no `_conflicts` and no
/// revision of ours.
@Suite("Syncing with a database whose CDTISMetaData another app wrote")
struct ForeignMetadataSyncTests {
    static let metadataRev = OriginalAppMetadata.rev
    static let recipeID = "CDTIS-Recipe-22222222-2222-4222-8222-222222222222"

    /// Writes the original app's metadata document (describing the current recipes model)
    /// and one recipe into a new store file at `url`, as a pull from its database would.
    static func writeOriginalDatabase(at url: URL) throws {
        let metadata = OriginalAppMetadata.body
        let store = try DocumentStore(path: url.path)
        try store.insertRevisions([
            ReplicatedRevision(id: "CDTISMetaData", rev: metadataRev, body: metadata),
            ReplicatedRevision(id: recipeID, rev: RevisionID("1-209a1f02d51251ec44a1a49103c5dd63")!,
                               body: ["CDTISEntityName": "Recipe", "CDTISObjectVersion": "1", "name": "Tarte Tatin"]),
        ])
        try store.close()
    }

    /// The live revisions of the metadata document in the store file at `url`, and whether
    /// it has conflicts.
    static func metadataState(_ url: URL) throws -> (live: [RevisionID], conflicts: [RevisionID]) {
        let store = try DocumentStore(path: url.path)
        defer { try? store.close() }
        return (try store.leafRevisions(id: "CDTISMetaData").filter { !$0.deleted }.map(\.rev),
                try store.conflicts(id: "CDTISMetaData"))
    }

    @Test("a new store syncing with it pushes no metadata revision, also after reopening")
    func newStore() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("original.sqlite")
        try Self.writeOriginalDatabase(at: remote)
        let local = directory.file("local.sqlite")
        do {
            let store = try RecipesStore(url: local)
            let report = try await store.sync(with: remote).run()
            #expect(report.succeeded && report.pulled == 2)
            #expect(try store.container.newBook().recipe(named: "Tarte Tatin").objectID.referenceString == Self.recipeID)
            try store.container.newBook().add(RecipeDraft(name: "Pho"))
            let second = try await store.sync(with: remote).run()
            #expect(second.succeeded && second.pushed == 1)
        }
        let reopened = try RecipesStore(url: local)
        let third = try await reopened.sync(with: remote).run()
        #expect(third.succeeded && third.pushed == 0)
        for url in [remote, local] {
            let state = try Self.metadataState(url)
            #expect(state.live == [Self.metadataRev] && state.conflicts.isEmpty)
        }
    }

    @Test("a store that had written its own metadata gives way: no conflict on either side")
    func storeWithItsOwnDocument() async throws {
        let directory = try TemporaryDirectory()
        let remote = directory.file("original.sqlite")
        try Self.writeOriginalDatabase(at: remote)
        let local = directory.file("local.sqlite")
        let store = try RecipesStore(url: local)
        try store.container.newBook().add(RecipeDraft(name: "Pho"))
        #expect(try Self.metadataState(local).live.count == 1)
        let report = try await store.sync(with: remote).run()
        #expect(report.succeeded && report.conflictsResolved == 0)
        for url in [remote, local] {
            let state = try Self.metadataState(url)
            #expect(state.live == [Self.metadataRev] && state.conflicts.isEmpty)
        }
        let pho = try store.container.newBook().recipe(named: "Pho")
        #expect(try RecipesStore(url: remote).container.newBook().recipe(named: "Pho").objectID == pho.objectID)
    }
}
