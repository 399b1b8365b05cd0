import EntityCodegen
import Foundation
import ObjectGraph
import Testing

/// The generator's output for two real models, compared with the reviewed text committed
/// in `Fixtures/` (regenerate a fixture by copying the tool's output over it after a
/// deliberate change, and review the diff).
@Suite("Generated source")
struct ExpectedOutputTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let root = tests.deletingLastPathComponent()

    static func generate(_ model: URL) throws -> String {
        try EntityCodeGenerator.load(modelAt: model).generate()
    }

    static func expected(_ name: String) throws -> String {
        try String(contentsOf: tests.appendingPathComponent("EntityCodegenTests/Fixtures/\(name)"), encoding: .utf8)
    }

    @Test("the Shelf test model (every attribute type, optional and required, to-one, ordered and unordered to-many, inverses, a sub-entity, a keyword) gives the committed text")
    func shelf() throws {
        let source = try Self.generate(Self.tests.appendingPathComponent("GeneratedEntityTests/Shelf.xcdatamodeld"))
        #expect(source == (try Self.expected("ShelfEntities.swift.expected")))
    }

    @Test("the bundled Recipes model gives the committed text")
    func recipes() throws {
        let source = try Self.generate(Self.root.appendingPathComponent("Sources/RecipesKit/Resources/Schemas/Recipes.xcdatamodeld"))
        #expect(source == (try Self.expected("RecipesEntities.swift.expected")))
    }

    @Test("the output depends only on the model: two runs give the same text")
    func deterministic() throws {
        let url = Self.tests.appendingPathComponent("GeneratedEntityTests/Shelf.xcdatamodeld")
        #expect(try Self.generate(url) == (try Self.generate(url)))
    }
}
