import DocumentFormat
import Foundation
import ObjectGraph
import Testing
@testable import RecipesKit
import TestSupport

@Suite("Sample set file (checked, then read a batch at a time)")
struct SampleSetFileTests {
    /// The recipes a set hands out batch by batch, with the first index of each batch.
    private func batches(_ set: any ImportableSampleSet, size: Int) throws -> (firsts: [Int], recipes: [SampleRecipe]) {
        var firsts: [Int] = []
        var recipes: [SampleRecipe] = []
        try set.forEachBatch(of: size) { first, batch in
            firsts.append(first)
            recipes += batch
        }
        return (firsts, recipes)
    }

    @Test("every shipped set streams to the same name, types, recipes (images included) and counts as the whole-file loader gives")
    func shippedSets() throws {
        let files = try FileManager.default.contentsOfDirectory(at: BundledSampleSets.directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(!files.isEmpty)
        for url in files {
            let loaded = try SampleSetLoader().load(contentsOf: url)
            let checked = try SampleSetLoader().checkedSet(contentsOf: url)
            let file = try #require(checked as? SampleSetFile, "\(url.lastPathComponent) should stream")
            #expect(file.name == loaded.name && file.types == loaded.types)
            #expect(file.recipeCount == loaded.recipes.count && file.objectCount == loaded.objectCount)
            let read = try batches(file, size: 2)
            #expect(read.recipes == loaded.recipes)
            #expect(read.firsts == Array(stride(from: 0, to: loaded.recipes.count, by: 2)))
        }
    }

    @Test("declared types come first, then the recipes' own in first-seen order, wherever 'types' stands in the file")
    func typesOrder() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("pies.json", #"""
            {"recipes": [{"name": "A", "type": "Savoury"}, {"name": "B", "type": "Dessert"}, {"name": "C", "type": "Brunch"}],
             "types": ["Dessert", "Snack"], "name": "pies"}
            """#)
        let file = try #require(try SampleSetLoader().checkedSet(contentsOf: url) as? SampleSetFile)
        #expect(file.types == ["Dessert", "Snack", "Savoury", "Brunch"])
        #expect(file.types == (try SampleSetLoader().load(contentsOf: url)).types)
        #expect(file.objectCount == 7)
    }

    /// What `checkedSet` and `load` make of `json`: the set (whole, for a streamed file)
    /// or the error.
    private func outcomes(_ json: String) throws -> (checked: Result<SampleSet, SampleSetError>, loaded: Result<SampleSet, SampleSetError>) {
        let directory = try TemporaryDirectory()
        try directory.write("images/pie.png", Fixtures.pngBytes)
        try directory.write("images/notes.txt", "not a picture")
        let url = try directory.write("classics.json", json)
        let loaded = Result { () throws(SampleSetError) in try SampleSetLoader().load(contentsOf: url) }
        let checked = Result { () throws(SampleSetError) -> SampleSet in
            let set = try SampleSetLoader().checkedSet(contentsOf: url)
            if let set = set as? SampleSet { return set }
            return SampleSet(name: set.name, types: set.types, recipes: (try? batches(set, size: 1).recipes) ?? [])
        }
        return (checked, loaded)
    }

    @Test("an invalid or truncated file gives exactly the whole-file loader's error", arguments: [
        #"{"name": "classics", "recipes": [{"name": "Pie", "ingredients": [{"name": "Apples"}]}, {"name": "Tart""#,
        #"{"name": "classics", "recipes": [{"name": "Pie"}"#,
        #"{"name": "classics", "recipes": [{"name": "Pie"}]} trailing"#,
        #"{"name": "classics" "recipes": []}"#,
        #"{"name": "classics", "recipes": []}"#,
        #"{"name": "", "recipes": [{"name": "Pie"}]}"#,
        #"{"recipes": [{"name": "Pie"}]}"#,
        #"{"name": "classics"}"#,
        #"{"name": "classics", "recipes": {"name": "Pie"}}"#,
        #"{"name": "classics", "recipes": [{"name": "Pie", "prepTIme": "1 hour"}, {"name": 3}]}"#,
        #"{"name": "classics", "recipes": [{"name": "Pie"}, {"name": "Pie"}]}"#,
        #"{"name": "classics", "types": ["Dessert", "Dessert"], "recipes": [{"name": "Pie"}]}"#,
        #"{"name": "classics", "colour": "red", "recipes": [{"name": "Pie"}]}"#,
        #"{"name": "classics", "recipes": [{"name": "Pie", "image": "images/missing.png"}]}"#,
        #"{"name": "classics", "recipes": [{"name": "Pie", "image": "images/notes.txt"}]}"#,
        #"{"name": "classics", "recipes": [{"name": "Pie", "image": "../outside.png"}]}"#,
        "{\"name\": \"classics\", \"recipes\": [{\"name\": \"Pie\u{1}\"}]}",
        #"["not", "an", "object"]"#,
        "",
        // Trailing commas are not JSON: one parser reads sets, and it refuses them.
        #"{"name": "classics", "recipes": [{"name": "Pie"},]}"#,
        #"{"name": "classics", "recipes": [{"name": "Pie"}], }"#,
    ])
    func sameErrors(json: String) throws {
        let (checked, loaded) = try outcomes(json)
        guard case .failure(let error) = loaded else {
            Issue.record("expected the loader to refuse it")
            return
        }
        #expect(checked == .failure(error))
    }

    @Test("an escaped control character is JSON: checked and loaded whole alike", arguments: [
        #"{"name": "classics", "recipes": [{"name": "Pie\u0001"}]}"#,
    ])
    func sameSets(json: String) throws {
        let (checked, loaded) = try outcomes(json)
        guard case .success = loaded else {
            Issue.record("expected the loader to take it")
            return
        }
        #expect(checked == loaded)
    }

    @Test("a valid file the stream does not take as it is (a repeated key) is loaded whole, with the same result")
    func unusualButValid() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("classics.json", #"{"name": "first", "name": "classics", "recipes": [{"name": "Pie"}]}"#)
        let checked = try SampleSetLoader().checkedSet(contentsOf: url)
        #expect(checked is SampleSet)
        #expect(checked.name == "classics" && checked.recipeCount == 1)
    }

    @Test("a file changed between the check and the import stops the import with 'changed while importing'")
    func changedFile() throws {
        let directory = try TemporaryDirectory()
        let url = try directory.write("classics.json", #"{"name": "classics", "recipes": [{"name": "Pie"}, {"name": "Tart"}]}"#)
        let file = try #require(try SampleSetLoader().checkedSet(contentsOf: url) as? SampleSetFile)
        try directory.write("classics.json", #"{"name": "classics", "recipes": [{"name": "Pie"}]}"#)
        #expect(throws: SampleSetError(fileURL: url, issues: [SampleSetIssue(path: nil, problem: .changedWhileImporting)])) {
            _ = try batches(file, size: 5)
        }
        try directory.write("classics.json", #"{"name": "classics", "recipes": [{"name": "Pie"}, {"name": 3}]}"#)
        #expect(throws: SampleSetError.self) { _ = try batches(file, size: 1) }
    }

    @Test("importing the streamed file gives the same plan and objects as importing the loaded set; again writes nothing")
    func importsLikeTheLoadedSet() throws {
        let url = BundledSampleSets.directory.appendingPathComponent("classics.json")
        let set = try SampleSetLoader().load(contentsOf: url)
        let file = try SampleSetLoader().checkedSet(contentsOf: url)
        #expect(file is SampleSetFile)

        let fromSet = try ObjectContainer.inMemoryRecipes()
        let setImporter = SampleImporter(context: fromSet.newContext(), batchSize: 3)
        let expectedPlan = try setImporter.plan([set])
        let expected = try setImporter.importSets([set])
        let fromFile = try ObjectContainer.inMemoryRecipes()
        let importer = SampleImporter(context: fromFile.newContext(), batchSize: 3)
        #expect(try importer.plan([file]) == expectedPlan)
        #expect(try importer.importSets([file]) == expected)
        #expect(try fromFile.newBook().counts() == (try fromSet.newBook().counts()))
        #expect(try SampleImporterTests.storedIDs(fromFile) == Set(SampleObjects(set).documentIDs))
        let again = try importer.importSets([file])
        #expect(again.isEmpty && again.unchanged == set.objectCount)
    }
}
