import Foundation
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Sample identity")
struct SampleIdentityTests {
    private let idPattern = #/^CDTIS-(Recipe|Ingredient|RecipeType|Image)-[0-9A-F]{8}-[0-9A-F]{4}-8[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/#

    @Test("the same input gives the same ID, in the CDTIS-<Entity>-<UUID v8> shape")
    func deterministic() throws {
        let first = SampleIdentity.recipeID(set: "classics", recipe: "Apple Crumble")
        #expect(first == SampleIdentity.recipeID(set: "classics", recipe: "Apple Crumble"))
        #expect(first.wholeMatch(of: idPattern) != nil, "\(first)")
        #expect(first.hasPrefix("CDTIS-Recipe-"))
        #expect(SampleIdentity.ingredientID(set: "classics", recipe: "Apple Crumble", displayOrder: 0, name: "Cooking apples")
            .hasPrefix("CDTIS-Ingredient-"))
        #expect(SampleIdentity.recipeTypeID(set: "classics", type: "Dessert").hasPrefix("CDTIS-RecipeType-"))
        #expect(SampleIdentity.imageID(set: "classics", recipe: "Apple Crumble").hasPrefix("CDTIS-Image-"))
    }

    @Test("the derivation is pinned: changing it would duplicate every seeded sample")
    func pinnedValue() {
        // SHA-256 over "30:org.recipes.sample-identity.v1" "8:classics" "6:Recipe" "13:Apple Crumble",
        // first 16 bytes, version 8 and RFC variant bits set.
        #expect(SampleIdentity.uuid(entity: .recipe, set: "classics", naturalKey: ["Apple Crumble"]).uuidString
            == PinnedIdentity.appleCrumble)
    }

    @Test("a different set, entity or key gives a different ID")
    func distinct() {
        let base = SampleIdentity.recipeID(set: "classics", recipe: "Pie")
        #expect(base != SampleIdentity.recipeID(set: "weeknight", recipe: "Pie"))
        #expect(base != SampleIdentity.recipeID(set: "classics", recipe: "pie"))
        #expect(SampleIdentity.uuid(entity: .recipe, set: "classics", naturalKey: ["Pie"])
            != SampleIdentity.uuid(entity: .image, set: "classics", naturalKey: ["Pie"]))
        #expect(SampleIdentity.ingredientID(set: "s", recipe: "Pie", displayOrder: 0, name: "Egg")
            != SampleIdentity.ingredientID(set: "s", recipe: "Pie", displayOrder: 1, name: "Egg"))
        // Canonically equivalent spellings are the same name, as Swift's == says.
        #expect(SampleIdentity.recipeTypeID(set: "s", type: "Entre\u{301}e") == SampleIdentity.recipeTypeID(set: "s", type: "Entrée"))
        // Length prefixes keep the parts apart: ("ab", "c") is not ("a", "bc").
        #expect(SampleIdentity.uuid(entity: .recipe, set: "ab", naturalKey: ["c"])
            != SampleIdentity.uuid(entity: .recipe, set: "a", naturalKey: ["bc"]))
    }

    @Test("every object of the Core Data fixture gets its own ID")
    func uniqueOverAStore() throws {
        let directory = try TemporaryDirectory()
        let set = try CoreDataStoreReader().read(storeAt: try Fixtures.copyOfAppleStore(in: directory))
        var ids: [String] = set.types.map { SampleIdentity.recipeTypeID(set: set.name, type: $0) }
        for recipe in set.recipes {
            ids.append(SampleIdentity.recipeID(set: set.name, recipe: recipe.name))
            if recipe.image != nil { ids.append(SampleIdentity.imageID(set: set.name, recipe: recipe.name)) }
            for (order, ingredient) in recipe.ingredients.enumerated() {
                ids.append(SampleIdentity.ingredientID(set: set.name, recipe: recipe.name, displayOrder: order, name: ingredient.name))
            }
        }
        #expect(ids.count == 50)
        #expect(Set(ids).count == 50)
        #expect(ids.allSatisfy { $0.wholeMatch(of: idPattern) != nil })
    }

    @Test("sample timestamps are constants that keep the set's order newest first")
    func timestamps() {
        #expect(SampleIdentity.sampleEpoch == ISO8601DateFormatter().date(from: "2010-01-01T00:00:00Z"))
        #expect(SampleIdentity.creationDate(recipeIndex: 0) == SampleIdentity.sampleEpoch)
        let dates = (0..<5).map { SampleIdentity.creationDate(recipeIndex: $0) }
        #expect(dates == dates.sorted(by: >))
        #expect(SampleIdentity.creationDate(recipeIndex: 3) == SampleIdentity.creationDate(recipeIndex: 3))
    }
}

/// Values computed independently (Python's hashlib and uuid) from the documented derivation.
enum PinnedIdentity {
    static let appleCrumble = "75386884-EB94-8026-B376-7B301A14E0FD"
}
