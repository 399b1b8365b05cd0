import Foundation
import Testing
@testable import ObjectGraph

/// Recipes sample rows, evaluated through `RowEvaluationSubject`.
struct SampleRows {
    var rows: [ObjectID: RowSnapshot] = [:]
    let model = TestSupport.recipesModel

    mutating func add(_ entity: String, _ ref: String, _ attributes: [String: AttributeValue], toOne: [String: ObjectID] = [:]) -> ObjectID {
        let id = ObjectID(entityName: entity, referenceString: ref)
        rows[id] = RowSnapshot(objectID: id, attributes: attributes, toOne: toOne, version: RowVersion("1"))
        return id
    }

    /// To-many destinations derived from the inverse to-one, ordered by reference.
    func toMany(_ id: ObjectID, _ key: String) -> [ObjectID] {
        guard let rel = model.entity(named: id.entityName)?.relationship(named: key), let inverse = rel.inverseName else { return [] }
        return rows.values.filter { $0.objectID.entityName == rel.destinationEntityName && $0.toOne[inverse] == id }
            .map(\.objectID).sorted()
    }

    func subject(_ id: ObjectID) -> RowEvaluationSubject {
        let rows = self.rows
        let me = self
        return RowEvaluationSubject(snapshot: rows[id]!, model: model, row: { rows[$0] }, toMany: { me.toMany($0, $1) })
    }

    static func recipes() -> (SampleRows, [String: ObjectID]) {
        var s = SampleRows()
        var ids: [String: ObjectID] = [:]
        let dessert = s.add("RecipeType", "dessert", ["name": .string("Dessert")])
        let main = s.add("RecipeType", "main", ["name": .string("Main")])
        let cake = s.add("Recipe", "cake", ["name": .string("Chocolate Cake"), "prepTime": .string("1 hour"), "overview": .string("Rich and dark")], toOne: ["type": dessert])
        let creme = s.add("Recipe", "creme", ["name": .string("Crème Brûlée"), "prepTime": .string("45 minutes")], toOne: ["type": dessert])
        let pasta = s.add("Recipe", "pasta", ["name": .string("Pasta al pomodoro"), "overview": .string("Quick")], toOne: ["type": main])
        let toast = s.add("Recipe", "toast", ["name": .string("Toast")])
        for (i, n) in ["Flour", "Sugar", "Eggs", "Cocoa", "Butter", "Milk"].enumerated() {
            _ = s.add("Ingredient", "cake\(i)", ["name": .string(n), "displayOrder": .int(Int64(i)), "amount": .string("\(i + 1) cups")], toOne: ["recipe": cake])
        }
        for (i, n) in ["Cream", "sugar", "Egg yolks"].enumerated() {
            _ = s.add("Ingredient", "creme\(i)", ["name": .string(n), "displayOrder": .int(Int64(i + 1))], toOne: ["recipe": creme])
        }
        for (i, n) in ["Pasta", "Tomatoes", "Basil"].enumerated() {
            _ = s.add("Ingredient", "pasta\(i)", ["name": .string(n), "displayOrder": .int(Int64(i))], toOne: ["recipe": pasta])
        }
        ids = ["dessert": dessert, "main": main, "cake": cake, "creme": creme, "pasta": pasta, "toast": toast]
        return (s, ids)
    }
}

@Suite("Predicate evaluator")
struct PredicateEvaluatorTests {
    /// Format strings with the sorted names of the recipes they select.
    static let cases: [(String, [String])] = [
        ("TRUEPREDICATE", ["Chocolate Cake", "Crème Brûlée", "Pasta al pomodoro", "Toast"]),
        ("FALSEPREDICATE", []),
        ("name == 'Toast'", ["Toast"]),
        ("name ==[c] 'toast'", ["Toast"]),
        ("name != 'Toast'", ["Chocolate Cake", "Crème Brûlée", "Pasta al pomodoro"]),
        ("name BEGINSWITH 'C'", ["Chocolate Cake", "Crème Brûlée"]),
        ("name BEGINSWITH[c] 'c'", ["Chocolate Cake", "Crème Brûlée"]),
        ("name CONTAINS 'creme'", []),
        ("name CONTAINS[cd] 'creme'", ["Crème Brûlée"]),
        ("name ENDSWITH[d] 'Brulee'", ["Crème Brûlée"]),
        ("name LIKE '*o*o*'", ["Chocolate Cake", "Pasta al pomodoro"]),
        ("name LIKE 'T?ast'", ["Toast"]),
        ("name LIKE[c] 'toas?'", ["Toast"]),
        ("name MATCHES '[A-Z][a-z]+'", ["Toast"]),
        ("name MATCHES[c] 'pasta.*'", ["Pasta al pomodoro"]),
        ("name IN {'Toast', 'Pasta al pomodoro', 'Nope'}", ["Pasta al pomodoro", "Toast"]),
        ("overview == nil", ["Crème Brûlée", "Toast"]),
        ("overview != nil", ["Chocolate Cake", "Pasta al pomodoro"]),
        ("type == nil", ["Toast"]),
        ("type.name == 'Dessert'", ["Chocolate Cake", "Crème Brûlée"]),
        ("type.name != 'Dessert'", ["Pasta al pomodoro", "Toast"]),
        ("ANY ingredients.name CONTAINS[c] 'flour'", ["Chocolate Cake"]),
        ("ANY ingredients.name ==[c] 'sugar'", ["Chocolate Cake", "Crème Brûlée"]),
        ("ingredients.name CONTAINS 'Basil'", ["Pasta al pomodoro"]),
        ("ALL ingredients.displayOrder >= 1", ["Crème Brûlée", "Toast"]),
        ("NONE ingredients.name == 'Eggs'", ["Crème Brûlée", "Pasta al pomodoro", "Toast"]),
        ("ingredients.@count > 5", ["Chocolate Cake"]),
        ("ingredients.@count == 0", ["Toast"]),
        ("ingredients.@count BETWEEN {3, 3}", ["Crème Brûlée", "Pasta al pomodoro"]),
        ("ingredients.@sum.displayOrder == 6", ["Crème Brûlée"]),
        ("ingredients.@max.displayOrder >= 5", ["Chocolate Cake"]),
        ("type.name == 'Dessert' AND ingredients.@count < 4", ["Crème Brûlée"]),
        ("type.name == 'Main' OR type == nil", ["Pasta al pomodoro", "Toast"]),
        ("NOT (type.name == 'Main' OR type == nil)", ["Chocolate Cake", "Crème Brûlée"]),
        ("prepTime > 'A'", []),
        ("prepTime < '2'", ["Chocolate Cake"]),
        ("type.recipes.@count == 2", ["Chocolate Cake", "Crème Brûlée"]),
    ]

    @Test(arguments: cases)
    func evaluatesOnRecipes(format: String, expected: [String]) throws {
        let (rows, _) = SampleRows.recipes()
        let predicate = try ObjectPredicate(format: format)
        let names = try rows.rows.values.filter { $0.objectID.entityName == "Recipe" }
            .filter { try PredicateEvaluator.evaluate(predicate, on: rows.subject($0.objectID)) }
            .compactMap { $0.attributes["name"]?.stringValue }.sorted()
        #expect(names == expected, "\(format)")
    }

    @Test func comparesObjectsDatesAndNumbers() throws {
        let (rows, ids) = SampleRows.recipes()
        let cake = rows.subject(ids["cake"]!)
        #expect(try PredicateEvaluator.evaluate(ObjectPredicate(format: "type == %@", ids["dessert"]!), on: cake))
        #expect(try !PredicateEvaluator.evaluate(ObjectPredicate(format: "type == %@", ids["main"]!), on: cake))
        #expect(try PredicateEvaluator.evaluate(ObjectPredicate(format: "SELF == %@", ids["cake"]!), on: cake))
        #expect(try PredicateEvaluator.evaluate(ObjectPredicate(format: "SELF IN %@", [ids["cake"]!, ids["pasta"]!]), on: cake))
        let flour = rows.subject(ObjectID(entityName: "Ingredient", referenceString: "cake0"))
        #expect(try PredicateEvaluator.evaluate(ObjectPredicate(format: "displayOrder == 0.0"), on: flour))
        #expect(try PredicateEvaluator.evaluate(ObjectPredicate(format: "displayOrder < %f", 0.5), on: flour))
        #expect(try PredicateEvaluator.evaluate(ObjectPredicate(format: "recipe.type.name == 'Dessert'"), on: flour))
        #expect(try !PredicateEvaluator.evaluate(ObjectPredicate(format: "displayOrder > nil"), on: flour))
        #expect(throws: PredicateEvaluationError.self) { try PredicateEvaluator.evaluate(ObjectPredicate(format: "colour == 1"), on: flour) }
        #expect(throws: PredicateEvaluationError.self) { try PredicateEvaluator.evaluate(ObjectPredicate(format: "name MATCHES '('"), on: flour) }
        // Dates compare by time.
        let a = Date(timeIntervalSinceReferenceDate: 10), b = Date(timeIntervalSinceReferenceDate: 20)
        #expect(AttributeValue.compare(.date(a), .date(b)) == .orderedAscending)
        #expect(AttributeValue.looselyEqual(.int(2), .double(2)))
        #expect(AttributeValue.looselyEqual(.decimal(Decimal(string: "2.5")!), .double(2.5)))
    }
}

@Suite("Predicate evaluator on managed objects")
struct ManagedObjectEvaluationTests {
    /// Inserts the sample rows into a context as managed objects (relationships through
    /// the to-one side, so inverses fill in the to-many side).
    static func insert(_ rows: SampleRows, into ctx: ObjectContext) throws -> [ObjectID: ManagedObject] {
        var objects: [ObjectID: ManagedObject] = [:]
        for row in rows.rows.values.sorted(by: { $0.objectID < $1.objectID }) {
            let o = try ctx.insert(row.objectID.entityName)
            for (k, v) in row.attributes { try o.setValue(v, forKey: k) }
            objects[row.objectID] = o
        }
        for row in rows.rows.values.sorted(by: { $0.objectID < $1.objectID }) {
            for (k, dest) in row.toOne { try objects[row.objectID]!.setObject(objects[dest]!, forKey: k) }
        }
        return objects
    }

    @Test func sameAnswersAsRowsBeforeAndAfterSaving() throws {
        let (rows, ids) = SampleRows.recipes()
        let stack = try Stack()
        let ctx = stack.context()
        let objects = try Self.insert(rows, into: ctx)
        let recipes = objects.values.filter { $0.entity.name == "Recipe" }
        func names(_ subjects: [ManagedObject], _ p: ObjectPredicate) throws -> [String] {
            try subjects.filter { try PredicateEvaluator.evaluate(p, on: $0) }.map { try $0.string("name")! }.sorted()
        }
        // Unsaved objects (pending values only).
        for (format, expected) in PredicateEvaluatorTests.cases {
            #expect(try names(recipes, ObjectPredicate(format: format)) == expected, "unsaved: \(format)")
        }
        try ctx.save()
        // Faults in a fresh context (values and to-many relationships load from the store).
        let reader = stack.context()
        let fetched = try reader.fetch(FetchRequest(entityName: "Recipe", fetchBatchSize: 1))
        for (format, expected) in PredicateEvaluatorTests.cases {
            #expect(try names(fetched, ObjectPredicate(format: format)) == expected, "saved: \(format)")
        }
        // Managed objects substitute as references.
        let dessert = try reader.existingObject(with: objects[ids["dessert"]!]!.objectID)
        #expect(try names(fetched, ObjectPredicate(format: "type == %@", dessert)) == ["Chocolate Cake", "Crème Brûlée"])
        #expect(try names(fetched, ObjectPredicate(format: "type IN %@", [dessert.objectID])) == ["Chocolate Cake", "Crème Brûlée"])
        #expect(try names(fetched, PredicateKey("type").equals(dessert) && PredicateKey.any("ingredients.name").beginsWith("coc", options: .caseInsensitive)) == ["Chocolate Cake"])
    }
}
