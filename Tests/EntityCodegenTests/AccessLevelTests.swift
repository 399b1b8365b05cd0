import EntityCodegen
import Foundation
import ObjectGraph
import Testing

/// The `swiftAccess` userInfo entry of an entity: its generated type's access level.
@Suite("Access levels of generated types")
struct AccessLevelTests {
    static let entities = """
        <entity name="Folder">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
            <relationship name="cover" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Cover" inverseName="folder" inverseEntity="Cover"/>
        </entity>
        <entity name="Note">
            <userInfo><entry key="swiftAccess" value="package"/></userInfo>
            <attribute name="text" optional="YES" attributeType="String"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
        </entity>
        <entity name="Cover">
            <userInfo><entry key="swiftAccess" value="internal"/></userInfo>
            <attribute name="picture" optional="YES" attributeType="Binary"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="cover" inverseEntity="Folder"/>
        </entity>
        """

    @Test("each type has its entity's level; a relationship to a less visible type takes that type's")
    func levels() throws {
        let model = try TemporaryModel(entities: Self.entities)
        let source = try EntityCodeGenerator.load(modelAt: model.url).generate()
        #expect(source.contains("public struct Folder: EntityObject {"))
        #expect(source.contains("package struct Note: EntityObject {"))
        #expect(source.contains("internal struct Cover: EntityObject {"))
        #expect(source.contains("    public var name: String? {"))
        #expect(source.contains("    package var notes: Set<Note> {"))
        #expect(source.contains("    internal var cover: Cover? {"))
        #expect(source.contains("    package var folder: Folder? {"), "Note's own members are package")
        #expect(source.contains("    internal static var propertyKeys: [PartialKeyPath<Cover>: String] {"))
        #expect(source.contains("public import ObjectGraph"))
    }

    @Test("a model of internal types imports internally")
    func internalOnly() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Note">
                <userInfo><entry key="swiftAccess" value="internal"/></userInfo>
                <attribute name="created" optional="YES" attributeType="Date"/>
            </entity>
            """)
        let source = try EntityCodeGenerator.load(modelAt: model.url).generate()
        #expect(source.contains("internal import Foundation\ninternal import ObjectGraph\n"))
        #expect(!source.contains("public "))
    }

    @Test("an unknown level fails with the entity, its line and the levels to use")
    func unknownLevel() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Note">
                <userInfo><entry key="swiftAccess" value="private"/></userInfo>
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            """)
        let error = try BadInputTests.failure(model)
        #expect(error.line == 3 && error.element == "entity \"Note\"")
        #expect(error.reason.contains("\"private\"") && error.reason.contains("public, package or internal"), "\(error.reason)")
    }
}
