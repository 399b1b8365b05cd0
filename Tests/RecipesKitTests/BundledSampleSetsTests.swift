import Foundation
import Testing
@testable import RecipesKit

@Suite("Bundled sample sets")
struct BundledSampleSetsTests {
    @Test("the resource bundle holds both shipped sets")
    func bothSetsLoad() throws {
        let sets = try BundledSampleSets.loadAll()
        #expect(sets.map(\.name) == ["classics", "weeknight"])
        #expect(FileManager.default.fileExists(atPath: BundledSampleSets.directory.appendingPathComponent("classics.json").path))
    }

    @Test("classics: 8 recipes over the 5 classic types, ingredients in file order, JPEG images")
    func classics() throws {
        let set = try #require(try BundledSampleSets.load(named: "classics"))
        #expect(set.recipes.count == 8)
        #expect(set.types == ["Appetizer", "Entrée", "Soup", "Snack", "Dessert"])
        #expect(set.ingredientCount == 61)
        for type in set.types {
            #expect(set.recipes.contains { $0.type == type }, "no recipe of type \(type)")
        }
        let carbonara = try #require(set.recipe(named: "Spaghetti Carbonara"))
        #expect(carbonara.type == "Entrée")
        #expect(carbonara.ingredients.map(\.name) == [
            "Spaghetti", "Guanciale or pancetta, cut in strips", "Egg yolks", "Egg",
            "Pecorino Romano, finely grated", "Coarse black pepper",
        ])
        #expect(carbonara.ingredients.first?.amount == "400 g")
        for recipe in set.recipes {
            let image = try #require(recipe.image, "\(recipe.name) has no image")
            let thumbnail = try #require(recipe.thumbnail, "\(recipe.name) has no thumbnail")
            #expect(image.format == .jpeg && image.mimeType == "image/jpeg")
            #expect(Array(image.data.prefix(3)) == [0xFF, 0xD8, 0xFF])
            #expect(thumbnail.format == .jpeg)
            #expect(image.data.count < 30_000 && thumbnail.data.count < image.data.count)
            #expect(!(recipe.instructions ?? "").isEmpty && !(recipe.overview ?? "").isEmpty && recipe.prepTime != nil)
        }
    }

    @Test("weeknight: 6 recipes, PNG images, one recipe without a picture")
    func weeknight() throws {
        let set = try #require(try BundledSampleSets.load(named: "weeknight"))
        #expect(set.recipes.count == 6)
        #expect(set.ingredientCount == 45)
        #expect(set.imageCount == 5)
        #expect(set.recipe(named: "Lemon Drizzle Cake")?.image == nil)
        let bread = try #require(set.recipe(named: "Banana Bread"))
        #expect(bread.type == "Snack")
        #expect(bread.ingredients.map(\.name).prefix(3) == ["Bananas", "Butter, melted", "Light brown sugar"])
        #expect(bread.image?.mimeType == "image/png")
        #expect(bread.image.map { Array($0.data.prefix(8)) } == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    @Test("the repository's top-level SampleData is the same data as the bundle")
    func topLevelFolderMatchesBundle() throws {
        let topLevel = Fixtures.packageRoot.appendingPathComponent("SampleData")
        let fromRepository = try SampleSetLoader().loadAll(in: topLevel)
        #expect(fromRepository == (try BundledSampleSets.loadAll()))
    }

    @Test("sample sets survive a Codable round trip")
    func codableRoundTrip() throws {
        let set = try #require(try BundledSampleSets.load(named: "weeknight"))
        let decoded = try JSONDecoder().decode(SampleSet.self, from: try JSONEncoder().encode(set))
        #expect(decoded == set)
    }
}
