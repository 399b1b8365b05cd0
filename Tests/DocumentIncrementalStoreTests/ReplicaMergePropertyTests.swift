import DocumentStore
import Foundation
import ObjectGraph
import PropertyBased
import Testing
@testable import DocumentIncrementalStore
import DocumentFormat

/// Random replica conflicts of one recipe (two or three replicas editing its attributes, its
/// type and its ingredients from a common base) settle to the same object in an
/// `InMemoryStore` and in a `DocumentIncrementalStore`: both resolve through `ReplicaMerge`.
@Suite("Replica merge across stores")
struct ReplicaMergePropertyTests {
    /// One replica's state of the recipe.
    struct RecipeState: Sendable, CustomStringConvertible {
        var name: String
        var prepTime: String?
        var overview: String?
        var type: String?
        var ingredients: [String]

        var description: String {
            "\(name)|\(prepTime ?? "nil")|\(overview ?? "nil")|\(type ?? "nil")|\(ingredients)"
        }
    }

    /// How the generated conflict is resolved; indexes are into the conflict's other versions.
    enum Policy: Sendable, CustomStringConvertible {
        case winnerTrumps, prefer(Int), keep(Int)

        var description: String {
            switch self {
            case .winnerTrumps: "winnerTrumps"
            case .prefer(let i): "prefer(others[\(i)])"
            case .keep(let i): "keep(others[\(i)])"
            }
        }

        var replicaPolicy: ReplicaMergePolicy {
            switch self {
            case .winnerTrumps: .winnerTrumps
            case .prefer(let i): .custom { .prefer($0.others[i].version) }
            case .keep(let i): .custom { .keep($0.others[i].version) }
            }
        }
    }

    /// A base state, the replicas' edits of it, each with the revision it replicates as, and a policy.
    struct Conflict: Sendable, CustomStringConvertible {
        var base: RecipeState
        var replicas: [(state: RecipeState, rev: RevisionID)]
        var policy: Policy

        var description: String {
            "base \(base); " + replicas.map { "\($0.rev): \($0.state)" }.joined(separator: "; ") + "; \(policy)"
        }
    }

    static let names = ["Soup", "Chowder", "Bisque"]
    static let times: [String?] = [nil, "10 min", "20 min"]
    static let overviews: [String?] = [nil, "Hot", "Cold", "Spicy"]
    static let types: [String?] = [nil, "t1", "t2"]
    static let pantry = ["salt", "pepper", "flour", "sugar", "milk", "eggs"]

    static let conflicts = Generator<Conflict, Shrink.None<Conflict>>(run: { rng in
        func pick<T>(_ values: [T]) -> T { values.randomElement(using: &rng)! }
        func chance(_ n: Int) -> Bool { Int.random(in: 0..<n, using: &rng) == 0 }
        let base = RecipeState(name: pick(names), prepTime: pick(times), overview: pick(overviews), type: pick(types),
                               ingredients: pantry.filter { _ in chance(2) })
        var replicas: [(state: RecipeState, rev: RevisionID)] = []
        var hashes = Set<String>()
        for _ in 0..<Int.random(in: 2...3, using: &rng) {
            var state = base
            if chance(2) { state.name = pick(names) }
            if chance(2) { state.prepTime = pick(times) }
            if chance(2) { state.overview = pick(overviews) }
            if chance(2) { state.type = pick(types) }
            state.ingredients.removeAll { _ in chance(3) }
            for item in pantry.shuffled(using: &rng) where !state.ingredients.contains(item) && chance(3) { state.ingredients.append(item) }
            var hash = ""
            repeat { hash = (0..<32).map { _ in String(Int.random(in: 0..<16, using: &rng), radix: 16) }.joined() } while !hashes.insert(hash).inserted
            // Some replicas saved twice: a higher generation wins regardless of its hash.
            replicas.append((state, RevisionID(generation: Int.random(in: 2...3, using: &rng), hash: hash)))
        }
        let others = replicas.count - 1
        let policy: Policy = switch Int.random(in: 0..<4, using: &rng) {
        case 0: .prefer(Int.random(in: 0..<others, using: &rng))
        case 1: .keep(Int.random(in: 0..<others, using: &rng))
        default: .winnerTrumps
        }
        return Conflict(base: base, replicas: replicas, policy: policy)
    })

    static let documentID = "CDTIS-Recipe-r1"
    static let recipeID = ObjectID(entityName: "Recipe", referenceString: documentID)
    static func ingredientID(_ name: String) -> ObjectID { ObjectID(entityName: "Ingredient", referenceString: "CDTIS-Ingredient-" + name) }
    static func typeID(_ name: String) -> ObjectID { ObjectID(entityName: "RecipeType", referenceString: "CDTIS-RecipeType-" + name) }
    static let baseRev = RevisionID(generation: 1, hash: String(repeating: "0", count: 32))

    /// The document body a replica of the original app would write for `state`.
    static func body(_ state: RecipeState, objectVersion: Int) -> JSONObject {
        [
            DocumentLayout.entityNameKey: .string("Recipe"),
            DocumentLayout.objectVersionKey: .string(String(objectVersion)),
            "name": .string(state.name),
            "prepTime": state.prepTime.map { .string($0) } ?? .null,
            "overview": state.overview.map { .string($0) } ?? .null,
            "type": state.type.map { .string(typeID($0).referenceString) } ?? .null,
            "ingredients": .array(state.ingredients.map { .string(ingredientID($0).referenceString) }),
        ]
    }

    /// The full row of `state` for the in-memory store.
    static func change(_ state: RecipeState, baseline: RowSnapshot?) -> ObjectChange {
        ObjectChange(objectID: recipeID,
                     attributes: ["name": .string(state.name), "prepTime": state.prepTime.map { .string($0) } ?? .null,
                                  "overview": state.overview.map { .string($0) } ?? .null],
                     toOne: state.type.map { ["type": typeID($0)] } ?? [:],
                     toMany: ["ingredients": state.ingredients.map(ingredientID)],
                     changedKeys: ["name", "prepTime", "overview", "type", "ingredients"], baseline: baseline)
    }

    /// The recipe as a store holds it: the generated attributes, the type and the ingredients.
    struct Resolved: Equatable, CustomStringConvertible {
        var attributes: [AttributeValue]
        var type: ObjectID?
        var ingredients: [ObjectID]
        var description: String { "\(attributes) type \(type.map(\.referenceString) ?? "nil") \(ingredients.map(\.referenceString))" }
    }

    static func resolved(_ store: some IncrementalStore) throws -> Resolved {
        let row = try #require(try store.snapshot(for: recipeID))
        return Resolved(attributes: ["name", "prepTime", "overview"].map { row.attributes[$0] ?? .null },
                        type: row.toOne["type"],
                        ingredients: try store.toManyDestinations(of: recipeID, relationship: "ingredients"))
    }

    @Test func bothStoresSettleEveryConflictToTheSameObject() async {
        await propertyCheck(count: 150, input: Self.conflicts) { conflict in
            // The document store, as replication leaves it: the base, then every replica's
            // edit as a concurrent leaf descending from it.
            let stack = try DocumentStack()
            let documents = stack.store.documentStore
            try documents.insertRevisions([ReplicatedRevision(id: Self.documentID, rev: Self.baseRev, body: Self.body(conflict.base, objectVersion: 1))])
            try documents.insertRevisions(conflict.replicas.map { replica in
                let history = (1...replica.rev.generation).reversed().map { generation in
                    generation == replica.rev.generation ? replica.rev
                        : generation == 1 ? Self.baseRev : RevisionID(generation: generation, hash: "1" + replica.rev.hash.dropFirst())
                }
                return ReplicatedRevision(id: Self.documentID, rev: replica.rev, body: Self.body(replica.state, objectVersion: replica.rev.generation),
                                          history: history)
            })
            // The winner and the order of the others are the datastore's; the in-memory store
            // gets the same ones (its current row wins, losers in the order injected).
            let leaves = try documents.leafRevisions(id: Self.documentID).filter { !$0.deleted }.map(\.rev)
            #expect(leaves.count == conflict.replicas.count)
            let states = Dictionary(uniqueKeysWithValues: conflict.replicas.map { ($0.rev, $0.state) })
            let ordered = try leaves.map { try #require(states[$0]) }

            let memory = InMemoryStore()
            memory.applyExternalChanges(upserts: [Self.change(conflict.base, baseline: nil)])
            let baseRow = try #require(try memory.snapshot(for: Self.recipeID))
            memory.applyExternalChanges(upserts: [Self.change(ordered[0], baseline: nil)])
            for state in ordered.dropFirst() {
                try memory.injectConflictingVersion(Self.change(state, baseline: baseRow),
                                                    baseToMany: ["ingredients": conflict.base.ingredients.map(Self.ingredientID)])
            }

            #expect(try stack.store.replicaConflicts().map(\.objectID) == [Self.recipeID])
            #expect(try memory.replicaConflicts().map(\.objectID) == [Self.recipeID])
            #expect(try stack.store.resolveReplicaConflicts(policy: conflict.policy.replicaPolicy) == [Self.recipeID])
            #expect(try memory.resolveReplicaConflicts(policy: conflict.policy.replicaPolicy) == [Self.recipeID])
            #expect(try stack.store.replicaConflicts().isEmpty && memory.replicaConflicts().isEmpty)

            let document = try Self.resolved(stack.store), inMemory = try Self.resolved(memory)
            #expect(document == inMemory, "\(conflict)")

            // Nothing is lost: unless a version is kept whole, the ingredients are the base's
            // minus what any replica removed, plus what any replica added.
            if case .keep = conflict.policy { return }
            let base = Set(conflict.base.ingredients)
            var expected = base
            for replica in conflict.replicas { expected.subtract(base.subtracting(replica.state.ingredients)) }
            for replica in conflict.replicas { expected.formUnion(Set(replica.state.ingredients).subtracting(base)) }
            #expect(Set(document.ingredients) == Set(expected.map(Self.ingredientID)), "\(conflict)")
        }
    }
}
