import Foundation
import ObjectModelMacro

/// A model using what the XML model offers beyond the Notebook's: an abstract entity with
/// sub-entities, a fetch index, bounds, transient and indexed attributes, `userInfo` entries,
/// model names other than the Swift names (`swiftName` in the XML), to-many counts. The same
/// model's XML is ``LibrarySchema/xml``.
@ObjectModel("Library")
enum LibrarySchema {
    /// Anything on a shelf.
    @Entity(isAbstract: true)
    @FetchIndex("byRankTitle", .descending("rank"), "title")
    struct Item {
        @Attribute(minValue: 1, maxValue: 80) var title: String
        @Attribute(minValue: 0) var added: Date?
        @Attribute(default: 0, minValue: 0, maxValue: 10, indexed: true) var rank: Int16
        /// Work in progress, never stored.
        @Attribute(transient: true) var scratch: String?
        @Relationship(inverse: "items") var shelf: Shelf?
    }

    @Entity(parent: Item.self)
    struct Book {
        // Inherited from Item, declared again to read it through Book.
        @Attribute(minValue: 1, maxValue: 80) var title: String
        @Attribute(modelName: "isbn", userInfo: ["format": "ISBN-13"]) var code: String?
        @Attribute(default: 1.5, minValue: 0.5) var weight: Double
    }

    @Entity(modelName: "Magazine", parent: Item.self)
    struct Periodical {
        var issue: Int32
    }

    @Entity
    @FetchIndex("byLabel", "label")
    struct Shelf {
        var label: String
        @Relationship(inverse: "shelf", deleteRule: .cascade, maxCount: 50) var items: Set<Item>
        @Relationship(modelName: "reading", transient: true) var current: Book?
    }

    /// The same model in Xcode's XML.
    static let xml = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item" isAbstract="YES">
                <attribute name="title" attributeType="String" minValueString="1" maxValueString="80"/>
                <attribute name="added" optional="YES" attributeType="Date" minDateTimeInterval="0"/>
                <attribute name="rank" attributeType="Integer 16" defaultValueString="0" minValueString="0" maxValueString="10" indexed="YES"/>
                <attribute name="scratch" optional="YES" transient="YES" attributeType="String">
                    <userInfo>
                        <entry key="description" value="Work in progress, never stored."/>
                    </userInfo>
                </attribute>
                <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="items" inverseEntity="Shelf"/>
                <fetchIndex name="byRankTitle">
                    <fetchIndexElement property="rank" type="Binary" order="descending"/>
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
                <userInfo>
                    <entry key="description" value="Anything on a shelf."/>
                </userInfo>
            </entity>
            <entity name="Book" parentEntity="Item">
                <attribute name="isbn" optional="YES" attributeType="String">
                    <userInfo>
                        <entry key="format" value="ISBN-13"/>
                        <entry key="swiftName" value="code"/>
                    </userInfo>
                </attribute>
                <attribute name="weight" attributeType="Double" defaultValueString="1.5" minValueString="0.5"/>
            </entity>
            <entity name="Magazine" parentEntity="Item">
                <attribute name="issue" attributeType="Integer 32"/>
                <userInfo>
                    <entry key="swiftName" value="Periodical"/>
                </userInfo>
            </entity>
            <entity name="Shelf">
                <attribute name="label" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" maxCount="50" deletionRule="Cascade" destinationEntity="Item" inverseName="shelf" inverseEntity="Item"/>
                <relationship name="reading" optional="YES" maxCount="1" transient="YES" deletionRule="Nullify" destinationEntity="Book">
                    <userInfo>
                        <entry key="swiftName" value="current"/>
                    </userInfo>
                </relationship>
                <fetchIndex name="byLabel">
                    <fetchIndexElement property="label" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
        </model>
        """
}
