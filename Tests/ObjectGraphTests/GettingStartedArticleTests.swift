import Foundation
import ObjectGraph
import Testing

/// Runs the steps of the ObjectGraph catalog's article "Getting Started with ObjectGraph"
/// (`Sources/ObjectGraph/Documentation.docc/GettingStarted.md`), so its code keeps compiling
/// and doing what the article says. Change both together.
@Suite("Documentation: ObjectGraph getting started")
struct GettingStartedArticleTests {
    @Test func modelCoordinatorContextFetch() throws {
        // Step 1: the model.
        let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Dish">
                <attribute name="name" attributeType="String"/>
                <attribute name="minutes" optional="YES" attributeType="Integer 32"/>
                <relationship name="ingredients" optional="YES" toMany="YES" deletionRule="Cascade"
                              destinationEntity="Item" inverseName="dish" inverseEntity="Item"/>
            </entity>
            <entity name="Item">
                <attribute name="name" attributeType="String"/>
                <relationship name="dish" optional="YES" maxCount="1" deletionRule="Nullify"
                              destinationEntity="Dish" inverseName="ingredients" inverseEntity="Dish"/>
            </entity>
        </model>
        """
        let model = try ObjectModel.load(xml: Data(xml.utf8), name: "Kitchen", path: "Kitchen.xcdatamodel")

        // Step 2: a store and the coordinator.
        let coordinator = try PersistentStoreCoordinator(model: model, store: InMemoryStore())

        // Step 3: a context, objects, a save.
        let context = ObjectContext(coordinator: coordinator, name: "main")
        let soup = try context.insert("Dish")
        try soup.setValue("Tomato Soup", forKey: "name")
        try soup.setValue(25, forKey: "minutes")
        for name in ["tomatoes", "onion", "stock"] {
            let item = try context.insert("Item")
            try item.setValue(name, forKey: "name")
            try item.setObject(soup, forKey: "dish")
        }
        let bread = try context.insert("Dish")
        try bread.setValue("Sourdough", forKey: "name")
        try bread.setValue(1440, forKey: "minutes")
        try context.save()

        // Step 4: fetch.
        let quick = try ObjectPredicate(format: "minutes <= %d AND ANY ingredients.name == %@", 30, "onion")
        let request = FetchRequest(entityName: "Dish", predicate: quick,
                                   sortDescriptors: [FetchSortDescriptor("name")])
        let dishes = try context.fetch(request)
        #expect(try dishes.map { try $0.string("name") } == ["Tomato Soup"])
        let items = try dishes[0].objects(forKey: "ingredients").compactMap { try $0.string("name") }
        #expect(items.sorted() == ["onion", "stock", "tomatoes"])
        #expect(try context.count(for: FetchRequest(entityName: "Item")) == 3)

        // Read values without objects.
        let lines = FetchRequest(entityName: "Dish", sortDescriptors: [FetchSortDescriptor("name")],
                                 propertiesToFetch: ["name", "ingredients"])
        var printed: [String] = []
        try context.fetchValues(lines) { dish in
            printed.append("\(dish.attributes["name"]?.stringValue ?? "") \(dish.toMany["ingredients"]?.count ?? 0)")
        }
        #expect(printed == ["Sourdough 0", "Tomato Soup 3"])

        // A second context sees what the first saved.
        let reader = ObjectContext(coordinator: coordinator, name: "reader")
        #expect(try reader.count(for: FetchRequest(entityName: "Dish")) == 2)

        // Step 5: change and delete.
        try bread.setValue(720, forKey: "minutes")
        try context.delete(soup)
        try context.save()
        #expect(try reader.count(for: FetchRequest(entityName: "Item")) == 0)
        #expect(try reader.fetch(FetchRequest(entityName: "Dish")).first?.int("minutes") == 720)
    }
}
