import EntityCodegen
import Foundation
import ObjectGraph
import Testing

/// Models the generator must refuse, or accept with escaping: each refusal names the file,
/// the line, the element and a fix.
@Suite("Bad models")
struct BadInputTests {
    /// The error `generate()` throws for `model`.
    static func failure(_ model: TemporaryModel) throws -> ModelError {
        do {
            _ = try EntityCodeGenerator.load(modelAt: model.url).generate()
        } catch {
            return error
        }
        Issue.record("the model was accepted")
        throw CancellationError()
    }

    @Test("a keyword attribute name becomes a backticked property")
    func keywordEscaped() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Note"><attribute name="class" optional="YES" attributeType="String"/></entity>
            """)
        let source = try EntityCodeGenerator.load(modelAt: model.url).generate()
        #expect(source.contains("public var `class`: String? {"))
        #expect(source.contains("get { object.attributeValue(\"class\", as: String.self) }"))
        #expect(source.contains("\\.`class`: \"class\","))
    }

    @Test("an attribute name that is no identifier fails with the entity and its line")
    func invalidAttributeName() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Note">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="2nd-title" optional="YES" attributeType="String"/>
            </entity>
            """)
        let error = try Self.failure(model)
        #expect(error.file == model.contentsPath())
        #expect(error.line == 5)
        #expect(error.element == "attribute \"2nd-title\" of entity \"Note\"")
        #expect(error.reason.contains("not a Swift identifier"))
        #expect(error.diagnostic.hasPrefix("\(model.contentsPath()):5: error: attribute \"2nd-title\" of entity \"Note\": "))
    }

    @Test("an entity name that is no identifier fails with its line")
    func invalidEntityName() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Shopping List"><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        let error = try Self.failure(model)
        #expect(error.line == 3)
        #expect(error.element == "entity \"Shopping List\"")
    }

    @Test("an entity named like a type the generated code uses is refused")
    func reservedTypeName() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Data"><attribute name="bytes" optional="YES" attributeType="Binary"/></entity>
            """)
        let error = try Self.failure(model)
        #expect(error.element == "entity \"Data\"")
        #expect(error.reason.contains("swiftName"))
    }

    @Test("a property clashing with a member every entity type has is refused with entity and line")
    func clashWithSharedMember() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Link">
                <attribute name="object" optional="YES" attributeType="String"/>
            </entity>
            """)
        let error = try Self.failure(model)
        #expect(error.line == 4)
        #expect(error.element == "attribute \"object\" of entity \"Link\"")
        #expect(error.reason.contains("\"object\""))
    }

    @Test("a property clashing with a to-many relationship's generated adder is refused")
    func clashWithAdder() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Note">
                <attribute name="addToTags" optional="YES" attributeType="String"/>
                <relationship name="tags" optional="YES" toMany="YES" destinationEntity="Note"/>
            </entity>
            """)
        let error = try Self.failure(model)
        #expect(error.line == 5)
        #expect(error.element == "relationship \"tags\" of entity \"Note\"")
        #expect(error.reason.contains("\"addToTags\""))
    }

    @Test("a name that cannot be a member even in backticks is refused")
    func unusableName() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Note"><attribute name="self" optional="YES" attributeType="String"/></entity>
            """)
        #expect(try Self.failure(model).element == "attribute \"self\" of entity \"Note\"")
    }

    @Test("userInfo swiftName renames a clashing property and keeps the model's key")
    func swiftNameFixesClash() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Link">
                <attribute name="object" optional="YES" attributeType="String">
                    <userInfo><entry key="swiftName" value="target"/></userInfo>
                </attribute>
            </entity>
            """)
        let source = try EntityCodeGenerator.load(modelAt: model.url).generate()
        #expect(source.contains("public var target: String? {"))
        #expect(source.contains("get { object.attributeValue(\"object\", as: String.self) }"))
        #expect(source.contains("nonmutating set { object.setAttributeValue(newValue, \"object\") }"))
        #expect(source.contains("\\.target: \"object\","))
    }

    @Test("several versions without .xccurrentversion fail naming the file to add")
    func missingCurrentVersion() throws {
        let model = try TemporaryModel([
            "Test": #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#,
            "Test 2": #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/></entity>"#,
        ])
        let error = try Self.failure(model)
        #expect(error.file == model.url.appendingPathComponent(".xccurrentversion").path)
        #expect(error.reason.contains("add one naming the current version"))
    }

    @Test("two versions with the same version hash fail naming both and the fix")
    func duplicateVersionHash() throws {
        let entities = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
        let model = try TemporaryModel(["Test": entities, "Test 2": entities], current: "Test 2")
        let error = try Self.failure(model)
        #expect(error.file == model.contentsPath("Test 2"))
        #expect(error.element == "model version \"Test 2\"")
        #expect(error.reason.contains("version \"Test\"") && error.reason.contains("delete the duplicate version"))
    }

    @Test("an invalid model fails with the loader's file and line")
    func loaderError() throws {
        let model = try TemporaryModel(entities: """
            <entity name="Note">
                <attribute name="title" attributeType="Text"/>
            </entity>
            """)
        let error = try Self.failure(model)
        #expect(error.file == model.contentsPath())
        #expect(error.line == 4)
        #expect(error.reason.contains("unknown attribute type \"Text\""))
    }
}
