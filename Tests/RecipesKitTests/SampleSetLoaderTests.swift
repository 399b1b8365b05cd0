import Foundation
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Sample set loader")
struct SampleSetLoaderTests {
    /// Writes `json` as `classics.json` in a fresh folder (with a PNG and a JPEG image and a
    /// non-image file beside it) and loads it, returning the error's lines.
    private func issues(
        _ json: String, loader: SampleSetLoader = SampleSetLoader(), file: String = "classics.json"
    ) throws -> [String] {
        let directory = try TemporaryDirectory()
        try directory.write("images/pie.png", Fixtures.pngBytes)
        try directory.write("images/pie.jpg", Fixtures.jpegBytes)
        try directory.write("images/notes.txt", "not a picture")
        let url = try directory.write(file, json)
        do {
            _ = try loader.load(contentsOf: url)
            Issue.record("expected the set to be refused")
            return []
        } catch {
            #expect(error.fileURL == url)
            return error.description.components(separatedBy: "\n")
        }
    }

    private func recipeSet(_ recipe: String) -> String {
        #"{"name": "classics", "recipes": [\#(recipe)]}"#
    }

    @Test("a valid set keeps values, order and images, and treats null as absent")
    func validSet() throws {
        let directory = try TemporaryDirectory()
        try directory.write("images/pie.png", Fixtures.pngBytes)
        try directory.write("images/pie-small.jpg", Fixtures.jpegBytes)
        let url = try directory.write("pies.json", #"""
            {"name": "pies", "types": ["Dessert", "Brunch"], "recipes": [
              {"name": "Apple Pie", "type": "Dessert", "overview": "Classic.", "prepTime": "1 hour",
               "instructions": "Bake.", "image": "images/pie.png", "thumbnail": "images/pie-small.jpg",
               "ingredients": [{"amount": "6", "name": "Apples"}, {"name": "Pastry"}, {"amount": null, "name": "Sugar"}]},
              {"name": "Quiche", "type": "Savoury", "overview": null}
            ]}
            """#)
        let set = try SampleSetLoader().load(contentsOf: url)
        #expect(set.name == "pies")
        #expect(set.types == ["Dessert", "Brunch", "Savoury"])
        #expect(set.recipes.map(\.name) == ["Apple Pie", "Quiche"])
        let pie = set.recipes[0]
        #expect(pie.ingredients == [
            SampleIngredient(amount: "6", name: "Apples"), SampleIngredient(amount: nil, name: "Pastry"),
            SampleIngredient(amount: nil, name: "Sugar"),
        ])
        #expect(pie.image?.mimeType == "image/png" && pie.image?.data == Fixtures.pngBytes)
        #expect(pie.thumbnail?.mimeType == "image/jpeg")
        #expect(set.recipes[1].overview == nil && set.recipes[1].ingredients.isEmpty && set.recipes[1].image == nil)
    }

    @Test("a wrong value names the file and its JSON path")
    func wrongIngredientName() throws {
        let lines = try issues(recipeSet(#"{"name": "Pie", "ingredients": [{"name": "Flour"}, {"amount": "1", "name": 3}]}"#))
        #expect(lines == ["classics.json: $.recipes[0].ingredients[1].name: expected a non-empty string, found a number"])
    }

    @Test("missing, empty, blank and mistyped names")
    func names() throws {
        #expect(try issues(recipeSet(#"{"type": "Dessert"}"#))
            == ["classics.json: $.recipes[0].name: missing; expected a non-empty string"])
        #expect(try issues(recipeSet(#"{"name": ""}"#))
            == ["classics.json: $.recipes[0].name: expected a non-empty string, found an empty string"])
        #expect(try issues(recipeSet(#"{"name": "  "}"#))
            == ["classics.json: $.recipes[0].name: expected a non-empty string, found only white space"])
        #expect(try issues(recipeSet(#"{"name": true}"#))
            == ["classics.json: $.recipes[0].name: expected a non-empty string, found a boolean"])
        #expect(try issues(#"{"name": null, "recipes": [{"name": "Pie"}]}"#)
            == ["classics.json: $.name: expected a non-empty string, found null"])
        #expect(try issues(recipeSet(#"{"name": "Pie", "type": ""}"#))
            == ["classics.json: $.recipes[0].type: expected a non-empty string, found an empty string"])
        #expect(try issues(recipeSet(#"{"name": "Pie", "overview": 12}"#))
            == ["classics.json: $.recipes[0].overview: expected a string, found a number"])
        #expect(try issues(recipeSet(#"{"name": "Pie", "ingredients": [{"name": "Egg", "amount": ["2"]}]}"#))
            == ["classics.json: $.recipes[0].ingredients[0].amount: expected a string, found an array"])
    }

    @Test("wrong shapes at every level")
    func shapes() throws {
        #expect(try issues("[]") == ["classics.json: $: expected an object, found an array"])
        #expect(try issues(#"{"name": "classics"}"#)
            == ["classics.json: $.recipes: missing; expected an array of recipes"])
        #expect(try issues(#"{"name": "classics", "recipes": {}}"#)
            == ["classics.json: $.recipes: expected an array of recipes, found an object"])
        #expect(try issues(#"{"name": "classics", "recipes": []}"#)
            == ["classics.json: $.recipes: the set has no recipes; add at least one"])
        #expect(try issues(recipeSet(#""Pie""#)) == ["classics.json: $.recipes[0]: expected an object, found a string"])
        #expect(try issues(recipeSet(#"{"name": "Pie", "ingredients": "flour"}"#))
            == ["classics.json: $.recipes[0].ingredients: expected an array of ingredients, found a string"])
        #expect(try issues(recipeSet(#"{"name": "Pie", "ingredients": [null]}"#))
            == ["classics.json: $.recipes[0].ingredients[0]: expected an object, found null"])
        #expect(try issues(#"{"name": "classics", "types": "Dessert", "recipes": [{"name": "Pie"}]}"#)
            == ["classics.json: $.types: expected an array of type names, found a string"])
    }

    @Test("unknown keys are refused, with the keys that are allowed")
    func unknownKeys() throws {
        #expect(try issues(recipeSet(#"{"name": "Pie", "prepTIme": "1 hour"}"#)) == [
            "classics.json: $.recipes[0].prepTIme: unknown key; allowed keys here are name, type, overview, prepTime, instructions, ingredients, image, thumbnail",
        ])
        #expect(try issues(#"{"name": "classics", "recipes": [{"name": "Pie"}], "serves 4": 1}"#)
            == [#"classics.json: $["serves 4"]: unknown key; allowed keys here are name, types, recipes"#])
        #expect(try issues(recipeSet(#"{"name": "Pie", "ingredients": [{"name": "Egg", "unit": "g"}]}"#))
            == ["classics.json: $.recipes[0].ingredients[0].unit: unknown key; allowed keys here are amount, name"])
    }

    @Test("duplicate recipe and type names")
    func duplicates() throws {
        #expect(try issues(recipeSet(#"{"name": "Pie"}, {"name": "Tart"}, {"name": "Pie"}"#)) == [
            #"classics.json: $.recipes[2].name: duplicate name "Pie" (first used at $.recipes[0].name); names must be unique within a set"#,
        ])
        #expect(try issues(#"{"name": "classics", "types": ["Soup", "Soup"], "recipes": [{"name": "Pie"}]}"#) == [
            #"classics.json: $.types[1]: duplicate name "Soup" (first used at $.types[0]); names must be unique within a set"#,
        ])
    }

    @Test("every problem in the file is reported, in document order")
    func allIssues() throws {
        let lines = try issues(#"{"name": "", "recipes": [{"name": "Pie", "ingredients": [{}]}, {"name": 1}]}"#)
        #expect(lines == [
            "classics.json: $.name: expected a non-empty string, found an empty string",
            "classics.json: $.recipes[0].ingredients[0].name: missing; expected a non-empty string",
            "classics.json: $.recipes[1].name: expected a non-empty string, found a number",
        ])
    }

    @Test("invalid JSON reports the line and column of the fault")
    func invalidJSON() throws {
        let lines = try issues("{\n  \"name\": \"classics\",\n  \"recipes\": [\n    {\"name\": Pie}\n  ]\n}\n")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasPrefix("classics.json: invalid JSON at line 4, column 14: "), "\(line)")
        let truncated = try #require(try issues(#"{"name": "classics", "recipes": ["#).first)
        #expect(truncated.hasPrefix("classics.json: invalid JSON"), "\(truncated)")
    }

    @Test("a missing or unreadable file")
    func unreadable() throws {
        let directory = try TemporaryDirectory()
        let missing = directory.file("nope.json")
        #expect(throws: SampleSetError.self) { try SampleSetLoader().load(contentsOf: missing) }
        do {
            _ = try SampleSetLoader().load(contentsOf: missing)
        } catch {
            #expect(error.description == "nope.json: cannot read the file: no such file at \(missing.path)")
        }
        try FileManager.default.createDirectory(at: directory.file("folder.json"), withIntermediateDirectories: true)
        do {
            _ = try SampleSetLoader().load(contentsOf: directory.file("folder.json"))
            Issue.record("a directory loaded as a set")
        } catch {
            #expect(error.description.hasPrefix("folder.json: cannot read the file:"))
        }
    }

    @Test("image problems: missing, not an image, outside the set, too large, a directory")
    func images() throws {
        #expect(try issues(recipeSet(#"{"name": "Pie", "image": "images/none.jpg"}"#)).count == 1)
        #expect(try issues(recipeSet(#"{"name": "Pie", "image": "images/none.jpg"}"#))[0]
            .hasPrefix(#"classics.json: $.recipes[0].image: cannot read image "images/none.jpg": no such file at "#))
        #expect(try issues(recipeSet(#"{"name": "Pie", "thumbnail": "images/notes.txt"}"#)) == [
            #"classics.json: $.recipes[0].thumbnail: image "images/notes.txt" is neither PNG nor JPEG; convert it to one of those"#,
        ])
        #expect(try issues(recipeSet(#"{"name": "Pie", "image": "../secret.jpg"}"#)) == [
            #"classics.json: $.recipes[0].image: image path "../secret.jpg" must be relative to the set file and stay inside its folder"#,
        ])
        #expect(try issues(recipeSet(#"{"name": "Pie", "image": "/etc/passwd"}"#)).first?
            .contains("must be relative to the set file") == true)
        #expect(try issues(recipeSet(#"{"name": "Pie", "image": "images/pie.png"}"#), loader: SampleSetLoader(maximumImageBytes: 4)) == [
            #"classics.json: $.recipes[0].image: image "images/pie.png" is 12 bytes; the limit is 4 bytes, scale it down"#,
        ])
        #expect(try issues(recipeSet(#"{"name": "Pie", "image": "images"}"#)) == [
            #"classics.json: $.recipes[0].image: cannot read image "images": it is a directory"#,
        ])
        #expect(try issues(recipeSet(#"{"name": "Pie", "image": 7}"#))
            == ["classics.json: $.recipes[0].image: expected a non-empty string, found a number"])
    }

    @Test("two files declaring the same set name are refused by loadAll")
    func duplicateSetNames() throws {
        let directory = try TemporaryDirectory()
        try directory.write("a.json", #"{"name": "same", "recipes": [{"name": "Pie"}]}"#)
        try directory.write("b.json", #"{"name": "same", "recipes": [{"name": "Tart"}]}"#)
        try directory.write("readme.txt", "ignored")
        do {
            _ = try SampleSetLoader().loadAll(in: directory.url)
            Issue.record("duplicate set names accepted")
        } catch {
            #expect(error.description == #"b.json: $.name: set name "same" is also used by a.json; give each set its own name"#)
        }
        try FileManager.default.removeItem(at: directory.file("b.json"))
        #expect(try SampleSetLoader().loadAll(in: directory.url).map(\.name) == ["same"])
    }

    @Test("the one-line summary counts the other issues")
    func summary() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("x.json", #"{"name": 1, "recipes": 2}"#)
        do {
            _ = try SampleSetLoader().load(contentsOf: url)
        } catch {
            #expect(error.issues.count == 2)
            #expect(error.summary == "x.json: $.name: expected a non-empty string, found a number (and 1 more)")
        }
    }

    @Test("JSON paths quote keys that are not plain identifiers")
    func paths() {
        let path = JSONPath.root.appending("recipes").appending(3).appending("a \"b\"").appending("_ok1")
        #expect(path.description == #"$.recipes[3]["a \"b\""]._ok1"#)
        #expect(JSONPath.root.description == "$")
    }
}

@Suite("JSON syntax positions")
struct JSONSyntaxErrorTests {
    @Test("byte offsets become 1-based lines and character columns")
    func offsets() {
        let data = Data("{\n  \"é\": x\n}".utf8)
        // Byte 10 is the "x": line 2, after two spaces, three characters of "é" and ": ".
        let position = JSONSyntaxError.position(ofByte: 10, in: data)
        #expect(position.line == 2 && position.column == 8)
        #expect(JSONSyntaxError.position(ofByte: 0, in: data).line == 1)
    }
}
