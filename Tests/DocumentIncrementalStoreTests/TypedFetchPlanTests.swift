import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore

/// A typed fetch reaches the SQLite store as the same query as its string equivalent, so
/// it keeps the same indexes: the `EXPLAIN QUERY PLAN`s are identical.
@Suite("Typed fetches use the same query plans as string fetches")
struct TypedFetchPlanTests {
    struct Category: EntityObject {
        static let entityName = "Category"
        let object: ManagedObject
        init(unchecked object: ManagedObject) { self.object = object }
        static var propertyKeys: [PartialKeyPath<Category>: String] { [\.name: "name", \.dishes: "dishes"] }
        var name: String { (try? object.value(forKey: "name", as: String.self)) ?? "" }
        var dishes: Set<Dish> { Set(((try? object.objects(forKey: "dishes")) ?? []).map(Dish.init(unchecked:))) }
    }

    struct Dish: EntityObject {
        static let entityName = "Dish"
        let object: ManagedObject
        init(unchecked object: ManagedObject) { self.object = object }
        static var propertyKeys: [PartialKeyPath<Dish>: String] { [\.title: "title", \.category: "category", \.parts: "parts"] }
        var title: String { (try? object.value(forKey: "title", as: String.self)) ?? "" }
        var category: Category? { ((try? object.object(forKey: "category")) ?? nil).map(Category.init(unchecked:)) }
        var parts: Set<Part> { Set(((try? object.objects(forKey: "parts")) ?? []).map(Part.init(unchecked:))) }
    }

    struct Part: EntityObject {
        static let entityName = "Part"
        let object: ManagedObject
        init(unchecked object: ManagedObject) { self.object = object }
        static var propertyKeys: [PartialKeyPath<Part>: String] { [\.label: "label", \.position: "position", \.dish: "dish"] }
        var label: String { (try? object.value(forKey: "label", as: String.self)) ?? "" }
        var position: Int16 { (try? object.value(forKey: "position", as: Int16.self)) ?? 0 }
        var dish: Dish? { ((try? object.object(forKey: "dish")) ?? nil).map(Dish.init(unchecked:)) }
    }

    /// The plans of a request, as comparable strings.
    static func plans(_ store: DocumentIncrementalStore, _ entity: String, _ predicate: ObjectPredicate,
                      _ sorts: [FetchSortDescriptor], limit: Int? = nil) throws -> [String] {
        try store.explainQueryPlans(StoreFetchRequest(entityNames: [entity], predicate: predicate, sortDescriptors: sorts, fetchLimit: limit))
            .map { "\($0.reading): \($0.steps.joined(separator: "; "))" }
    }

    @Test("to-one key paths, object IDs and ANY through a to-many plan as their format strings do")
    func samePlans() throws {
        let (stack, dishes) = try FetchIndexPlanTests.kitchen()
        let store = stack.store
        let dish = dishes[5]

        // category.name == "Category 2", sorted by title, first three.
        let byTitle = [try FetchSortDescriptor(SortDescriptor(\Dish.title))]
        let typedName = try ObjectPredicate(#Predicate<Dish> { $0.category?.name == "Category 2" })
        let stringName = try ObjectPredicate(format: "category.name == %@", "Category 2")
        #expect(typedName == stringName)
        let namePlans = try Self.plans(store, "Dish", typedName, byTitle, limit: 3)
        #expect(namePlans.count == 2)
        #expect(namePlans == (try Self.plans(store, "Dish", stringName, [FetchSortDescriptor("title")], limit: 3)))
        FetchIndexPlanTests.expectIndexed(try store.explainQueryPlans(StoreFetchRequest(entityNames: ["Dish"], predicate: typedName,
                                                                                        sortDescriptors: byTitle, fetchLimit: 3)))

        // dish == %@ by position.
        let byPosition = [try FetchSortDescriptor(SortDescriptor(\Part.position))]
        let typedDish = try ObjectPredicate(#Predicate<Part> { $0.dish?.objectID == dish })
        let stringDish = try ObjectPredicate(format: "dish == %@", dish)
        #expect(typedDish == stringDish)
        #expect(try Self.plans(store, "Part", typedDish, byPosition) == (try Self.plans(store, "Part", stringDish, [FetchSortDescriptor("position")])))

        // ANY parts.label CONTAINS[cd] %@.
        let typedAny = try ObjectPredicate(#Predicate<Dish> { $0.parts.contains { $0.label.localizedStandardContains("part 1 of dish 2 of 0") } })
        let stringAny = try ObjectPredicate(format: "ANY parts.label CONTAINS[cd] %@", "part 1 of dish 2 of 0")
        #expect(typedAny == stringAny)
        let anyPlans = try Self.plans(store, "Dish", typedAny, [])
        #expect(anyPlans.count == 2)
        #expect(anyPlans == (try Self.plans(store, "Dish", stringAny, [])))

        // Through a context: the typed fetches return what the string fetches do.
        let reader = stack.context("reader")
        let typedDishes = try reader.fetch(FetchDescriptor(predicate: #Predicate<Dish> { $0.category?.name == "Category 2" },
                                                           sortBy: [SortDescriptor(\Dish.title)], fetchLimit: 3))
        #expect(typedDishes.map(\.title) == ["Dish 0 of 2", "Dish 1 of 2", "Dish 2 of 2"])
        let parts = try reader.fetch(FetchDescriptor(predicate: #Predicate<Part> { $0.dish?.objectID == dish }, sortBy: [SortDescriptor(\Part.position)]))
        #expect(parts.map(\.position) == [0, 1, 2])
        let withPart = try reader.fetch(FetchDescriptor(predicate: #Predicate<Dish> { $0.parts.contains { $0.label.localizedStandardContains("PART 1 of dish 2 of 0") } }))
        #expect(withPart.map(\.title) == ["Dish 1 of 0"])
        #expect(try reader.fetchCount(FetchDescriptor(predicate: #Predicate<Dish> { $0.category?.name == "Category 2" })) == 4)
    }
}
