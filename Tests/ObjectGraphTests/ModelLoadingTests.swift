import Foundation
import Testing
@testable import ObjectGraph
@testable import ManagedModel
import TestSupport

@Suite("Model loading")
struct ModelLoadingTests {
    @Test func loadsRecipesModelWithVersions() throws {
        let set = try ModelVersionSet.load(contentsOf: TestSupport.recipesModeld)
        #expect(set.versionNames == ["Recipes", "Recipes 2", "Recipes 3"])
        #expect(set.currentVersionName == "Recipes 3")
        let model = try #require(set.versions["Recipes"])
        #expect(model.entities.map(\.name) == ["Image", "Ingredient", "Recipe", "RecipeType"])

        let recipe = try #require(model.entity(named: "Recipe"))
        #expect(recipe.attributes.map(\.name) == ["instructions", "name", "overview", "prepTime", "thumbnailImage"])
        let name = try #require(recipe.attribute(named: "name"))
        #expect(name.type == .string && !name.isOptional && name.isIndexed)
        #expect(name.minValue == .int(1))
        #expect(recipe.attribute(named: "thumbnailImage")?.type == .binary)
        #expect(recipe.attribute(named: "thumbnailImage")?.userInfo == ["format": "JPEG or PNG"])
        #expect(recipe.fetchIndexes == [
            FetchIndexDescription(name: "byNameIndex", elements: [.init(property: "name", ascending: true)]),
            FetchIndexDescription(name: "byTypeAndNameIndex", elements: [.init(property: "type", ascending: true),
                                                                         .init(property: "name", ascending: true)]),
        ])
        #expect(name.userInfo == ["foldedIndex": "YES", "textIndexed": "YES"])

        let type = try #require(recipe.relationship(named: "type"))
        #expect(type.destinationEntityName == "RecipeType" && type.isToOne && type.deleteRule == .nullify && type.inverseName == "recipes")
        let ingredients = try #require(recipe.relationship(named: "ingredients"))
        #expect(ingredients.isToMany && ingredients.deleteRule == .cascade && ingredients.inverseName == "recipe" && !ingredients.isOrdered)
        let image = try #require(recipe.relationship(named: "image"))
        #expect(image.isToOne && image.deleteRule == .cascade && image.destinationEntityName == "Image")

        let ingredient = try #require(model.entity(named: "Ingredient"))
        #expect(ingredient.attribute(named: "displayOrder")?.type == .integer16)
        #expect(ingredient.attribute(named: "displayOrder")?.defaultValue == .int(0))
        #expect(ingredient.relationship(named: "recipe")?.deleteRule == .nullify)
        #expect(model.entity(named: "RecipeType")?.relationship(named: "recipes")?.isToMany == true)
        #expect(model.entity(named: "Image")?.relationship(named: "recipe")?.inverseName == "image")

        // Version 2 adds Recipe.createdAt: the Recipe hash and the model hash change, the others do not.
        let v2 = try #require(set.versions["Recipes 2"])
        #expect(v2.entity(named: "Recipe")?.attribute(named: "createdAt")?.type == .date)
        #expect(v2.entity(named: "Recipe")?.fetchIndexes.count == 2)
        #expect(v2.versionHash != model.versionHash)
        #expect(v2.entity(named: "Recipe")?.versionHash != recipe.versionHash)
        #expect(v2.entity(named: "Ingredient")?.versionHash == ingredient.versionHash)
        #expect(set.version(withHash: model.versionHash)?.name == "Recipes")

        // Version 3 (current) keeps version 1's indexes, version 2's createdAt, and adds the
        // encrypted Recipe.notes.
        let v3 = set.current
        let notes = try #require(v3.entity(named: "Recipe")?.attribute(named: "notes"))
        #expect(notes.type == .string && notes.isOptional && notes.isEncrypted && !notes.isIndexed)
        #expect(notes.userInfo == ["encrypted": "YES"])
        #expect(v3.entity(named: "Recipe")?.attribute(named: "createdAt")?.type == .date)
        #expect(v3.entity(named: "Recipe")?.fetchIndexes == recipe.fetchIndexes)
        #expect(v3.entity(named: "Recipe")?.attribute(named: "overview")?.isEncrypted == false)
    }

    @Test func encryptedAttributesMustBeStringOrBinaryAndUnindexed() throws {
        func load(_ attribute: String) throws -> ObjectModel {
            try ObjectModel.load(xml: TestSupport.modelXML("<entity name=\"E\">" + attribute + "</entity>"), name: "m", path: "m")
        }
        let ok = try load("<attribute name=\"x\" optional=\"YES\" attributeType=\"Binary\"><userInfo><entry key=\"encrypted\" value=\"YES\"/></userInfo></attribute>")
        #expect(ok.entity(named: "E")?.attribute(named: "x")?.isEncrypted == true)
        #expect(throws: ModelError.self) {
            try load("<attribute name=\"x\" optional=\"YES\" attributeType=\"Integer 32\"><userInfo><entry key=\"encrypted\" value=\"YES\"/></userInfo></attribute>")
        }
        #expect(throws: ModelError.self) {
            try load("<attribute name=\"x\" optional=\"YES\" indexed=\"YES\" attributeType=\"String\"><userInfo><entry key=\"encrypted\" value=\"YES\"/></userInfo></attribute>")
        }
    }

    @Test func versionHashesAreDeterministicAndStructural() throws {
        let a = try ObjectModel.load(contentsOf: TestSupport.recipesModeld.appendingPathComponent("Recipes.xcdatamodel/contents"))
        let b = try ObjectModel.load(contentsOf: TestSupport.recipesModeld.appendingPathComponent("Recipes.xcdatamodel"))
        #expect(a.versionHash == b.versionHash)
        let current = try ObjectModel.load(contentsOf: TestSupport.recipesModeld.appendingPathComponent("Recipes 3.xcdatamodel"))
        #expect(try ObjectModel.load(contentsOf: TestSupport.recipesModeld).versionHash == current.versionHash)
        #expect(a.versionHash.count == 64)
        #expect(a.entity(named: "Recipe")?.attribute(named: "name")?.versionHash.count == 64)
        // Changing only a default value keeps hashes; changing optionality changes them.
        let base = "<entity name=\"E\"><attribute name=\"x\" optional=\"YES\" attributeType=\"Integer 32\" defaultValueString=\"1\"/></entity>"
        let m1 = try ObjectModel.load(xml: TestSupport.modelXML(base), name: "m", path: "m")
        let m2 = try ObjectModel.load(xml: TestSupport.modelXML(base.replacingOccurrences(of: "\"1\"", with: "\"2\"")), name: "m", path: "m")
        let m3 = try ObjectModel.load(xml: TestSupport.modelXML(base.replacingOccurrences(of: "optional=\"YES\"", with: "optional=\"NO\"")), name: "m", path: "m")
        #expect(m1.versionHash == m2.versionHash)
        #expect(m1.versionHash != m3.versionHash)
        #expect(m1.entity(named: "E")?.attribute(named: "x")?.versionHash != m3.entity(named: "E")?.attribute(named: "x")?.versionHash)
    }

    /// The code generator compares versions by canonical definition instead of SHA-256; the
    /// two must agree on which versions are alike, across every version of the Recipes model.
    @Test func canonicalDefinitionsAndSHA256AgreeOnWhichVersionsAreAlike() throws {
        let hashed = try ModelVersionSet.load(contentsOf: TestSupport.recipesModeld)
        let canonical = try ModelVersionSet.load(contentsOf: TestSupport.recipesModeld, digest: .canonical)
        #expect(hashed.versionNames == canonical.versionNames && hashed.versionNames.count >= 3)
        for x in hashed.versionNames {
            #expect(hashed.versions[x]!.versionHash != canonical.versions[x]!.versionHash)
            for y in hashed.versionNames {
                #expect((hashed.versions[x]!.versionHash == hashed.versions[y]!.versionHash)
                        == (canonical.versions[x]!.versionHash == canonical.versions[y]!.versionHash))
            }
        }
        // A default value is not structural, so it changes neither; optionality changes both.
        let base = "<entity name=\"E\"><attribute name=\"x\" optional=\"YES\" attributeType=\"Integer 32\" defaultValueString=\"1\"/></entity>"
        func definition(_ xml: String) throws -> String {
            try ObjectModel.load(xml: TestSupport.modelXML(xml), name: "m", path: "m", digest: .canonical).versionHash
        }
        #expect(try definition(base) == definition(base.replacingOccurrences(of: "\"1\"", with: "\"2\"")))
        #expect(try definition(base) != definition(base.replacingOccurrences(of: "optional=\"YES\"", with: "optional=\"NO\"")))
        #expect(try definition(base).contains("optional=true"))
    }

    @Test func loadsInheritanceAbstractAndAllTypes() throws {
        let xml = """
        <entity name="Base" isAbstract="YES" elementID="OldBase">
            <attribute name="uid" optional="YES" attributeType="UUID"/>
        </entity>
        <entity name="Item" parentEntity="Base">
            <attribute name="s" optional="YES" attributeType="String" minValueString="2" maxValueString="5"/>
            <attribute name="i16" optional="YES" attributeType="Integer 16" defaultValueString="7"/>
            <attribute name="i32" optional="YES" attributeType="Integer 32"/>
            <attribute name="i64" optional="YES" attributeType="Integer 64" minValueString="-1" maxValueString="10"/>
            <attribute name="d" optional="YES" attributeType="Double" defaultValueString="1.5"/>
            <attribute name="f" optional="YES" attributeType="Float"/>
            <attribute name="dec" optional="YES" attributeType="Decimal" defaultValueString="2.25"/>
            <attribute name="b" optional="YES" attributeType="Boolean" defaultValueString="YES"/>
            <attribute name="dt" optional="YES" attributeType="Date" defaultDateTimeInterval="100"/>
            <attribute name="bin" optional="YES" attributeType="Binary"/>
            <attribute name="t" optional="YES" attributeType="Transformable" elementID="oldT"/>
            <attribute name="u" optional="YES" attributeType="URI"/>
            <relationship name="tags" optional="YES" toMany="YES" ordered="YES" minCount="1" maxCount="3" deletionRule="Deny" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
            <userInfo><entry key="k" value="v"/></userInfo>
        </entity>
        <entity name="Tag">
            <relationship name="items" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
        """
        let model = try ObjectModel.load(xml: TestSupport.modelXML(xml), name: "m", path: "m.xml")
        let base = try #require(model.entity(named: "Base"))
        let item = try #require(model.entity(named: "Item"))
        #expect(base.isAbstract && base.subentityNames == ["Item"] && base.renamingIdentifier == "OldBase")
        #expect(item.superentityName == "Base")
        #expect(item.attributes.first?.name == "uid")
        #expect(item.attributes.map(\.type) == [.uuid, .string, .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean, .date, .binary, .transformable, .uri])
        #expect(item.attribute(named: "i16")?.defaultValue == .int(7))
        #expect(item.attribute(named: "dec")?.defaultValue == .decimal(Decimal(string: "2.25")!))
        #expect(item.attribute(named: "b")?.defaultValue == .bool(true))
        #expect(item.attribute(named: "dt")?.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 100)))
        #expect(item.attribute(named: "s")?.maxValue == .int(5))
        #expect(item.attribute(named: "t")?.renamingIdentifier == "oldT")
        #expect(item.userInfo == ["k": "v"])
        let tags = try #require(item.relationship(named: "tags"))
        #expect(tags.isOrdered && tags.minCount == 1 && tags.maxCount == 3 && tags.deleteRule == .deny)
        #expect(model.entity(named: "Tag")?.relationship(named: "items")?.deleteRule == .noAction)
        #expect(model.entityAndSubentities(of: base).map(\.name) == ["Base", "Item"])
    }

    /// Each invalid model with the line and a fragment of the element the error must name.
    static let invalidCases: [(name: String, body: String, line: Int, element: String, reason: String)] = [
        ("missing destination", "<entity name=\"A\">\n<relationship name=\"r\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\"/>\n</entity>", 4, "relationship \"r\"", "destinationEntity"),
        ("unknown destination", "<entity name=\"A\">\n<relationship name=\"r\" destinationEntity=\"Nope\"/>\n</entity>", 4, "relationship \"r\"", "Nope"),
        ("inverse not pointing back", "<entity name=\"A\">\n<relationship name=\"b\" destinationEntity=\"B\" inverseName=\"a\"/>\n<relationship name=\"other\" destinationEntity=\"B\" inverseName=\"a\"/>\n</entity>\n<entity name=\"B\">\n<relationship name=\"a\" destinationEntity=\"A\" inverseName=\"other\"/>\n</entity>", 4, "relationship \"b\" of entity \"A\"", "does not point back"),
        ("inverse missing", "<entity name=\"A\">\n<relationship name=\"b\" destinationEntity=\"B\" inverseName=\"zzz\"/>\n</entity>\n<entity name=\"B\"/>", 4, "relationship \"b\"", "zzz"),
        ("duplicate entity", "<entity name=\"A\"/>\n<entity name=\"A\"/>", 4, "entity \"A\"", "duplicate entity"),
        ("duplicate property", "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\"/>\n<attribute name=\"x\" attributeType=\"String\"/>\n</entity>", 5, "attribute \"x\"", "duplicate property"),
        ("duplicate inherited property", "<entity name=\"P\">\n<attribute name=\"x\" attributeType=\"String\"/>\n</entity>\n<entity name=\"C\" parentEntity=\"P\">\n<relationship name=\"x\" destinationEntity=\"P\"/>\n</entity>", 7, "relationship \"x\" of entity \"C\"", "duplicate property"),
        ("unknown attribute type", "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Integer 128\"/>\n</entity>", 4, "attribute \"x\"", "Integer 128"),
        ("bad default", "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"Integer 16\" defaultValueString=\"99999\"/>\n</entity>", 4, "attribute \"x\"", "default value"),
        ("unknown delete rule", "<entity name=\"A\">\n<relationship name=\"r\" destinationEntity=\"A\" deletionRule=\"Explode\"/>\n</entity>", 4, "relationship \"r\"", "deletionRule"),
        ("missing parent", "<entity name=\"A\" parentEntity=\"Ghost\"/>", 3, "entity \"A\"", "Ghost"),
        ("malformed XML", "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\">\n</entity>", 5, "XML", "malformed"),
        ("malformed attribute syntax", "<entity name=\"A\">\n<attribute name=\"x\" attributeType=\"String\" = />\n</entity>", 4, "XML", "malformed"),
        ("fetch index on unknown property", "<entity name=\"A\">\n<fetchIndex name=\"i\">\n<fetchIndexElement property=\"nope\" type=\"Binary\" order=\"ascending\"/>\n</fetchIndex>\n</entity>", 5, "fetchIndexElement", "nope"),
    ]

    @Test(arguments: 0..<invalidCases.count)
    func refusesInvalidModel(index: Int) throws {
        let c = Self.invalidCases[index]
        do {
            _ = try ObjectModel.load(xml: TestSupport.modelXML(c.body), name: "bad", path: "bad/contents")
            Issue.record("\(c.name): expected an error")
        } catch let error as ModelError {
            #expect(error.file == "bad/contents", "\(c.name)")
            #expect(error.line == c.line, "\(c.name): \(error)")
            #expect(error.element.contains(c.element), "\(c.name): \(error)")
            #expect(error.reason.contains(c.reason), "\(c.name): \(error)")
        }
    }

    @Test func refusesMissingCurrentVersionAndUnreadableFile() throws {
        let temporary = try TemporaryDirectory("og")
        let dir = temporary.file("Test.xcdatamodeld")
        let v = dir.appendingPathComponent("V1.xcdatamodel")
        try FileManager.default.createDirectory(at: v, withIntermediateDirectories: true)
        try TestSupport.modelXML("<entity name=\"A\"/>").write(to: v.appendingPathComponent("contents"))
        #expect(try ModelVersionSet.load(contentsOf: dir).currentVersionName == "V1")
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>V9.xcdatamodel</string></dict></plist>"
        try Data(plist.utf8).write(to: dir.appendingPathComponent(".xccurrentversion"))
        #expect(throws: ModelError.self) { try ModelVersionSet.load(contentsOf: dir) }
        #expect(throws: ModelError.self) { try ObjectModel.load(contentsOf: dir.appendingPathComponent("Missing.xcdatamodel")) }
        #expect(throws: ModelError.self) { try ObjectModel.load(contentsOf: dir) }
    }

    @Test("the current version alone: the same model, and older versions are not read")
    func loadsTheCurrentVersionAlone() throws {
        let whole = try ModelVersionSet.load(contentsOf: TestSupport.recipesModeld)
        let current = try ObjectModel.load(contentsOf: TestSupport.recipesModeld)
        #expect(current.versionHash == whole.current.versionHash)
        #expect(current.entities.map(\.name) == whole.current.entities.map(\.name))

        // A broken older version fails the whole set but not the current version.
        let temporary = try TemporaryDirectory("og")
        let dir = temporary.file("Test.xcdatamodeld")
        for (version, xml) in [("V1", Data("<model><entity name=".utf8)), ("V2", TestSupport.modelXML("<entity name=\"A\"/>"))] {
            let folder = dir.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try xml.write(to: folder.appendingPathComponent("contents"))
        }
        let plist = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>V2.xcdatamodel</string></dict></plist>"
        try Data(plist.utf8).write(to: dir.appendingPathComponent(".xccurrentversion"))
        #expect(throws: ModelError.self) { try ModelVersionSet.load(contentsOf: dir) }
        #expect(try ObjectModel.load(contentsOf: dir).entities.map(\.name) == ["A"])
        // Without the plist, several versions leave the current one undecided.
        try FileManager.default.removeItem(at: dir.appendingPathComponent(".xccurrentversion"))
        #expect(throws: ModelError.self) { try ObjectModel.load(contentsOf: dir) }
    }
}

@Suite("Model loading, unusual markup")
struct ModelMarkupTests {
    @Test func ignoresLookAlikeElementsOutsideEntities() throws {
        let xml = """
        <entity name="A">
            <attribute name="x" optional="YES" attributeType="String"/>
            <userInfo><entry key="k" value="v"/></userInfo>
        </entity>
        <elements>
            <entity name="Layout"><attribute name="ghost" attributeType="Nonsense"/></entity>
            <element name="A" positionX="1" positionY="2" width="128" height="44"/>
        </elements>
        <configuration name="Default"><memberEntity name="A"/></configuration>
        """
        let model = try ObjectModel.load(xml: TestSupport.modelXML(xml), name: "m", path: "m")
        #expect(model.entities.map(\.name) == ["A"])
        #expect(model.entity(named: "A")?.userInfo == ["k": "v"])
        #expect(throws: ModelError.self) { try ObjectModel.load(xml: Data("<notAModel/>".utf8), name: "m", path: "m") }
    }
}
