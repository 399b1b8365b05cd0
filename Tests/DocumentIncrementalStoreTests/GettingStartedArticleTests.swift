import DocumentIncrementalStore
import DocumentStore
import Foundation
import ObjectGraph
import Testing
import DocumentFormat

/// Runs the steps of the DocumentIncrementalStore catalog's article "Getting Started with
/// DocumentIncrementalStore" (`Sources/DocumentIncrementalStore/Documentation.docc/GettingStarted.md`),
/// so its code keeps compiling and doing what the article says. Change both together.
@Suite("Documentation: DocumentIncrementalStore getting started")
struct GettingStartedArticleTests {
    static let xml = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        <entity name="Dish">
            <attribute name="name" attributeType="String"/>
            <attribute name="minutes" optional="YES" attributeType="Integer 32"/>
            <attribute name="notes" optional="YES" attributeType="String">
                <userInfo>
                    <entry key="encrypted" value="YES"/>
                </userInfo>
            </attribute>
        </entity>
    </model>
    """

    @Test func objectGraphOnADocumentStore() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("dis-article-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kitchen.sqlite").path
        let model = try ObjectModel.load(xml: Data(Self.xml.utf8), name: "Kitchen", path: "Kitchen.xcdatamodel")

        // Step 1: open the store and a coordinator on it.
        let store = try DocumentIncrementalStore(url: URL(fileURLWithPath: path))
        let coordinator = try PersistentStoreCoordinator(model: model, store: store)
        try store.unlock(password: "correct horse battery staple")

        // Step 2: save objects as usual.
        let context = ObjectContext(coordinator: coordinator)
        let soup = try context.insert("Dish")
        try soup.setValue("Tomato Soup", forKey: "name")
        try soup.setValue(25, forKey: "minutes")
        try soup.setValue("Grandmother's version", forKey: "notes")
        try context.save()

        // Step 3: look at the documents.
        let documents = try store.documentStore.find(Query(selector: [DocumentLayout.entityNameKey: "Dish"]))
        #expect(documents.count == 1)
        let document = documents[0]
        #expect(document.id.hasPrefix("CDTIS-Dish-"))
        #expect(document.body["name"] == "Tomato Soup")
        #expect(document.body["notes"] != "Grandmother's version")
        #expect(try store.documentStore.get(id: DocumentLayout.metadataDocumentID) != nil)

        // Step 4: fetches become datastore queries.
        let request = FetchRequest(entityName: "Dish", predicate: try ObjectPredicate(format: "minutes < 30"))
        #expect(try context.fetch(request).count == 1)

        // Step 5: open the same file again, elsewhere.
        let reopened = try DocumentIncrementalStore.openCoordinator(url: URL(fileURLWithPath: path), model: model)
        let reader = ObjectContext(coordinator: reopened, name: "reader")
        let found = try reader.fetch(FetchRequest(entityName: "Dish"))
        #expect(try found.map { try $0.string("name") } == ["Tomato Soup"])
    }
}
