import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import DocumentFormat

@Suite("Optimistic locking and replica conflicts")
struct ConflictTests {
    private func seededRecipe(_ stack: DocumentStack) throws -> ObjectID {
        let ctx = stack.context("seed")
        let r = try ctx.insert("Recipe")
        try r.setValue(.string("Soup"), forKey: "name")
        try r.setValue(.string("10 min"), forKey: "prepTime")
        try r.setValue(.string("Hot"), forKey: "overview")
        try ctx.save()
        return r.objectID
    }

    @Test func twoContextsConflictPerPropertyAndPoliciesResolve() throws {
        let stack = try DocumentStack()
        let id = try seededRecipe(stack)
        let a = stack.context("a"), b = stack.context("b")
        let ra = try a.existingObject(with: id), rb = try b.existingObject(with: id)
        try ra.setValue(.string("Chowder"), forKey: "name")
        try a.save()
        try rb.setValue(.string("20 min"), forKey: "prepTime")
        // Default policy: the save is refused, naming the object and the property changed underneath.
        do {
            try b.save()
            Issue.record("save should have failed")
        } catch ObjectGraphError.mergeConflicts(let conflicts) {
            #expect(conflicts.map(\.objectID) == [id])
            #expect(conflicts.first?.changedInStore == ["name"])
        }
        b.mergePolicy = .storeTrumps
        try b.save()
        var doc = try #require(try stack.store.documentStore.get(id: id.referenceString))
        #expect(doc.body["name"] == "Chowder")
        #expect(doc.body["prepTime"] == "20 min")
        #expect(doc.body["CDTISObjectVersion"] == "3")
        // Object trumps: the context's value overwrites the store's.
        a.mergePolicy = .storeTrumps
        try ra.setValue(.string("Bisque"), forKey: "name")
        try a.save()
        try rb.setValue(.string("Consommé"), forKey: "name")
        b.mergePolicy = .objectTrumps
        try b.save()
        doc = try #require(try stack.store.documentStore.get(id: id.referenceString))
        #expect(doc.body["name"] == "Consommé")
        // A deletion underneath is a conflict too.
        let c = stack.context("c")
        let rc = try c.existingObject(with: id)
        let d = stack.context("d")
        try d.existingObject(with: id).setValue(.string("Gazpacho"), forKey: "name")
        try d.save()
        try c.delete(rc)
        #expect(throws: ObjectGraphError.self) { try c.save() }
    }

    /// Two replicas edit the same recipe (here: name and prepTime there, overview here), then
    /// the remote edit is pulled; returns both stacks and the object.
    private func divergedReplicas() throws -> (local: DocumentStack, remote: DocumentStack, id: ObjectID) {
        let local = try DocumentStack(), remote = try DocumentStack()
        let id = try seededRecipe(local)
        try TestSupport.replicate(id.referenceString, from: local.store.documentStore, to: remote.store.documentStore)
        let rctx = remote.context("remote")
        let rr = try rctx.existingObject(with: id)
        try rr.setValue(.string("Remote soup"), forKey: "name")
        try rr.setValue(.string("15 min"), forKey: "prepTime")
        try rctx.save()
        let lctx = local.context("local")
        let lr = try lctx.existingObject(with: id)
        try lr.setValue(.string("Local soup"), forKey: "name")
        try lr.setValue(.string("Cold"), forKey: "overview")
        try lctx.save()
        try TestSupport.replicate(id.referenceString, from: remote.store.documentStore, to: local.store.documentStore)
        return (local, remote, id)
    }

    private func body(_ stack: DocumentStack, _ id: ObjectID) throws -> JSONObject {
        try #require(try stack.store.documentStore.get(id: id.referenceString)).body
    }

    private func expectConverged(_ s: (local: DocumentStack, remote: DocumentStack, id: ObjectID)) throws {
        #expect(try s.local.store.objectsWithConflicts().isEmpty)
        #expect(try s.local.store.documentStore.conflicts(id: s.id.referenceString).isEmpty)
        try TestSupport.replicate(s.id.referenceString, from: s.local.store.documentStore, to: s.remote.store.documentStore)
        #expect(try s.remote.store.documentStore.get(id: s.id.referenceString)?.rev == s.local.store.documentStore.get(id: s.id.referenceString)?.rev)
        #expect(try s.remote.store.documentStore.conflicts(id: s.id.referenceString).isEmpty)
    }

    @Test func storeTrumpsKeepsTheWinnersChangesAndTheLosersOthers() throws {
        let s = try divergedReplicas()
        #expect(try s.local.store.objectsWithConflicts() == [s.id])
        let conflict = try #require(try s.local.store.replicaConflicts().first)
        #expect(conflict.conflictingProperties.isSuperset(of: ["name", "prepTime", "overview"]))
        #expect(conflict.localVersion != nil)
        let winner = try #require(try s.local.store.documentStore.get(id: s.id.referenceString))
        let winnerIsLocal = winner.body["name"] == "Local soup"
        // A context showing the object sees the resolution after the store reports it.
        let ctx = s.local.context("viewer")
        let viewed = try ctx.existingObject(with: s.id)
        try s.local.store.resolveReplicaConflicts(policy: .winnerTrumps)
        let merged = try body(s.local, s.id)
        #expect(merged["name"] == (winnerIsLocal ? "Local soup" : "Remote soup"))
        #expect(merged["prepTime"] == "15 min")
        #expect(merged["overview"] == "Cold")
        try ctx.refresh(viewed, mergeChanges: false)
        #expect(try viewed.string("overview") == "Cold")
        try expectConverged(s)
    }

    @Test func localTrumpsKeepsThisReplicasEdits() throws {
        let s = try divergedReplicas()
        try s.local.store.resolveReplicaConflicts(policy: .localTrumps)
        let merged = try body(s.local, s.id)
        #expect(merged["name"] == "Local soup")
        #expect(merged["overview"] == "Cold")
        #expect(merged["prepTime"] == "15 min", "a property only the remote changed is kept")
        try expectConverged(s)
    }

    /// Edits the seeded recipe here (name), then `between` runs (a relaunch, many saves), then
    /// a remote edit of the same recipe (name and prepTime) is pulled; returns what
    /// `.localTrumps` made of it.
    private func localTrumpsAfter(_ between: (inout DocumentStack) throws -> Void) throws -> JSONObject {
        var local = try DocumentStack()
        let remote = try DocumentStack()
        let id = try seededRecipe(local)
        try TestSupport.replicate(id.referenceString, from: local.store.documentStore, to: remote.store.documentStore)
        let lctx = local.context("local")
        try lctx.existingObject(with: id).setValue(.string("Local soup"), forKey: "name")
        try lctx.save()
        try between(&local)
        let rctx = remote.context("remote")
        let rr = try rctx.existingObject(with: id)
        try rr.setValue(.string("Remote soup"), forKey: "name")
        try rr.setValue(.string("15 min"), forKey: "prepTime")
        try rctx.save()
        try TestSupport.replicate(id.referenceString, from: remote.store.documentStore, to: local.store.documentStore)
        #expect(try local.store.objectsWithConflicts() == [id])
        let conflict = try #require(try local.store.replicaConflicts().first)
        let localLeaf = try #require(try local.store.documentStore.leafRevisions(id: id.referenceString)
            .first { $0.body["name"] == "Local soup" })
        #expect(conflict.localVersion == RowVersion(localLeaf.rev.description), "the leaf written here is known as local")
        try local.store.resolveReplicaConflicts(policy: .localTrumps)
        #expect(try local.store.objectsWithConflicts().isEmpty)
        return try body(local, id)
    }

    @Test func localTrumpsHoldsAcrossARelaunch() throws {
        let merged = try localTrumpsAfter { local in
            try local.store.documentStore.close()
            local = try DocumentStack(directory: local.directory)
        }
        #expect(merged["name"] == "Local soup")
        #expect(merged["prepTime"] == "15 min", "a property only the remote changed is kept")
    }

    @Test func localTrumpsHoldsPastTheInstancesMemoryOfItsOwnWrites() throws {
        let merged = try localTrumpsAfter { local in
            // The instance remembers its own writes only up to a limit (65,536, here 16), for
            // the changes feed; which leaf was written here does not depend on it.
            local.store.ownRevisionsLimit = 16
            let ctx = local.context("many saves")
            for n in 0..<40 {
                try ctx.insert("RecipeType").setValue(.string("Type \(n)"), forKey: "name")
                try ctx.save()
            }
            #expect(local.store.ownRevisions.count <= 16)
        }
        #expect(merged["name"] == "Local soup")
        #expect(merged["prepTime"] == "15 min")
    }

    @Test func aRevisionThatArrivedByReplicationIsNotLocal() throws {
        let local = try DocumentStack(), remote = try DocumentStack()
        let id = try seededRecipe(remote)
        try TestSupport.replicate(id.referenceString, from: remote.store.documentStore, to: local.store.documentStore)
        #expect(try local.store.documentStore.latestLocalRevision(id: id.referenceString) == nil)
        let written = try remote.store.documentStore.latestLocalRevision(id: id.referenceString)
        #expect(written == (try remote.store.documentStore.get(id: id.referenceString)?.rev))
    }

    @Test func customResolverDecides() throws {
        let s = try divergedReplicas()
        try s.local.store.resolveReplicaConflicts(policy: .custom { conflict in
            let names = ([conflict.winner] + conflict.others).compactMap { $0.attributes["name"]?.stringValue }.sorted()
            return .merged(["name": .string(names.joined(separator: " / ")), "prepTime": .string("1 min")])
        })
        let merged = try body(s.local, s.id)
        #expect(merged["name"] == "Local soup / Remote soup")
        #expect(merged["prepTime"] == "1 min")
        try expectConverged(s)
        // Keeping a named leaf.
        let t = try divergedReplicas()
        let loser = try #require(try t.local.store.replicaConflicts().first?.others.first)
        try t.local.store.resolveReplicaConflicts(policy: .custom { _ in .keep(loser.version) })
        #expect(try body(t.local, t.id)["name"] == loser.attributes["name"].flatMap { $0.stringValue.map { JSONValue.string($0) } })
        try expectConverged(t)
    }

    /// A policy that refuses one conflict.
    struct Refused: Error {}

    @Test func aPolicyThatFailsOnOneConflictResolvesNone() throws {
        let s = try divergedReplicas()
        // A second conflicted recipe in the same store.
        let other = try seededRecipe(s.local)
        try TestSupport.replicate(other.referenceString, from: s.local.store.documentStore, to: s.remote.store.documentStore)
        for (stack, value) in [(s.local, "Here"), (s.remote, "There")] {
            let ctx = stack.context()
            try ctx.existingObject(with: other).setValue(.string(value), forKey: "name")
            try ctx.save()
        }
        try TestSupport.replicate(other.referenceString, from: s.remote.store.documentStore, to: s.local.store.documentStore)
        let before = try [s.id, other].map { try #require(try s.local.store.documentStore.get(id: $0.referenceString)).rev }
        #expect(try s.local.store.objectsWithConflicts() == [s.id, other].sorted())
        let last = try #require([s.id, other].max())
        #expect(throws: Refused.self) {
            try s.local.store.resolveReplicaConflicts(policy: .custom { conflict in
                if conflict.objectID == last { throw Refused() }
                return .winnerTrumps
            })
        }
        #expect(try s.local.store.objectsWithConflicts() == [s.id, other].sorted())
        #expect(try [s.id, other].map { try #require(try s.local.store.documentStore.get(id: $0.referenceString)).rev } == before)
    }

    @Test func threeReplicasMergePropertyByProperty() throws {
        let a = try DocumentStack(), b = try DocumentStack(), c = try DocumentStack()
        let id = try seededRecipe(a)
        try TestSupport.replicate(id.referenceString, from: a.store.documentStore, to: b.store.documentStore)
        try TestSupport.replicate(id.referenceString, from: a.store.documentStore, to: c.store.documentStore)
        for (stack, key, value) in [(a, "name", "A name"), (b, "prepTime", "B time"), (c, "overview", "C overview")] {
            let ctx = stack.context()
            try ctx.existingObject(with: id).setValue(.string(value), forKey: key)
            try ctx.save()
        }
        try TestSupport.replicate(id.referenceString, from: b.store.documentStore, to: a.store.documentStore)
        try TestSupport.replicate(id.referenceString, from: c.store.documentStore, to: a.store.documentStore)
        #expect(try a.store.documentStore.conflicts(id: id.referenceString).count == 2)
        try a.store.resolveReplicaConflicts(policy: .winnerTrumps)
        let merged = try body(a, id)
        #expect(merged["name"] == "A name")
        #expect(merged["prepTime"] == "B time")
        #expect(merged["overview"] == "C overview")
        #expect(try a.store.documentStore.conflicts(id: id.referenceString).isEmpty)
    }

    @Test func anEditConcurrentWithADeletionSurvivesIt() throws {
        // The merge rule does not see deleted versions: the live edit is the object.
        let local = try DocumentStack(), remote = try DocumentStack()
        let id = try seededRecipe(local)
        try TestSupport.replicate(id.referenceString, from: local.store.documentStore, to: remote.store.documentStore)
        let lctx = local.context("local")
        try lctx.delete(try lctx.existingObject(with: id))
        try lctx.save()
        let rctx = remote.context("remote")
        try rctx.existingObject(with: id).setValue(.string("Edited soup"), forKey: "name")
        try rctx.save()
        try TestSupport.replicate(id.referenceString, from: remote.store.documentStore, to: local.store.documentStore)
        #expect(try local.store.replicaConflicts().isEmpty)
        #expect(try local.store.resolveReplicaConflicts(policy: .winnerTrumps).isEmpty)
        let row = try #require(try local.store.snapshot(for: id))
        #expect(row.attributes["name"] == .string("Edited soup"))
        #expect(row.attributes["overview"] == .string("Hot"))
    }

    @Test func pulledChangesReachContextsAfterProcessing() throws {
        let local = try DocumentStack(), remote = try DocumentStack()
        let id = try seededRecipe(local)
        try TestSupport.replicate(id.referenceString, from: local.store.documentStore, to: remote.store.documentStore)
        let ctx = local.context("viewer")
        let viewed = try ctx.existingObject(with: id)
        let rctx = remote.context()
        try rctx.existingObject(with: id).setValue(.string("Pulled"), forKey: "name")
        try rctx.save()
        try TestSupport.replicate(id.referenceString, from: remote.store.documentStore, to: local.store.documentStore)
        let changes = try local.store.processExternalChanges()
        #expect(changes.updated == [id])
        // The context takes the change in at its next use: this read.
        let name = try viewed.string("name")
        #expect(name == "Pulled")
    }

    /// Changes are reported under the entity their ID names (no document read), and a
    /// document whose ID has another shape under the entity its body names.
    @Test func externalChangesNameTheirEntityByIDOrElseByBody() throws {
        let local = try DocumentStack(), remote = try DocumentStack()
        let ctx = remote.context()
        let recipe = try ctx.insert("Recipe")
        try recipe.setValue(.string("Laid out"), forKey: "name")
        let foreign = try ctx.insert("Ingredient", id: "grandmas-flour")
        try foreign.setValue(.string("Flour"), forKey: "name")
        try ctx.save()
        _ = try local.store.processExternalChanges()
        for id in [recipe.objectID.referenceString, "grandmas-flour"] {
            try TestSupport.replicate(id, from: remote.store.documentStore, to: local.store.documentStore)
        }
        let changes = try local.store.processExternalChanges()
        #expect(changes.updated == [recipe.objectID, ObjectID(entityName: "Ingredient", referenceString: "grandmas-flour")])
        #expect(recipe.objectID.referenceString.hasPrefix("CDTIS-Recipe-"))
    }
}

@Suite("Replica conflicts through contexts")
struct ContextReplicaConflictTests {
    @Test(arguments: ["storeTrumps", "keepLoser", "custom"])
    func contextsResolveReplicaConflicts(policy: String) throws {
        let local = try DocumentStack(), remote = try DocumentStack()
        let seed = local.context("seed")
        let r = try seed.insert("Recipe")
        try r.setValue(.string("Soup"), forKey: "name")
        try seed.save()
        let id = r.objectID
        func copy(_ from: DocumentStore, _ to: DocumentStore) throws {
            try to.insertRevisions(try from.leafRevisions(id: id.referenceString).map {
                ReplicatedRevision(id: $0.id, rev: $0.rev, deleted: $0.deleted, body: $0.body, history: try from.history(id: $0.id, rev: $0.rev))
            })
        }
        try copy(local.store.documentStore, remote.store.documentStore)
        let rctx = remote.context()
        try rctx.existingObject(with: id).setValue(.string("Remote"), forKey: "name")
        try rctx.save()
        let lctx = local.context()
        try lctx.existingObject(with: id).setValue(.string("Local"), forKey: "name")
        try lctx.save()
        try copy(remote.store.documentStore, local.store.documentStore)
        #expect(try local.coordinator.objectsWithConflicts() == [id])
        let winnerName = try #require(try local.store.documentStore.get(id: id.referenceString)?.body["name"]?.stringValue)
        let loserName = winnerName == "Local" ? "Remote" : "Local"
        let replicaPolicy: ReplicaMergePolicy
        switch policy {
        case "storeTrumps": replicaPolicy = .winnerTrumps
        case "keepLoser": replicaPolicy = .custom { conflict in .keep(conflict.others[0].version) }
        default: replicaPolicy = .custom { _ in .merged(["name": .string("Both")]) }
        }
        let resolved = try lctx.resolveReplicaConflicts(policy: replicaPolicy)
        #expect(resolved == [id])
        #expect(try local.store.objectsWithConflicts().isEmpty)
        let expected = policy == "storeTrumps" ? winnerName : (policy == "keepLoser" ? loserName : "Both")
        #expect(try local.store.documentStore.get(id: id.referenceString)?.body["name"] == .string(expected))
        #expect(try lctx.existingObject(with: id).string("name") == expected)
        // The remote converges once it has the resolution.
        try copy(local.store.documentStore, remote.store.documentStore)
        #expect(try remote.store.documentStore.conflicts(id: id.referenceString).isEmpty)
        #expect(try remote.store.documentStore.get(id: id.referenceString)?.rev == local.store.documentStore.get(id: id.referenceString)?.rev)
    }
}
