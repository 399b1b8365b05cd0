public import Foundation

/// One model version's definitions as Xcode's model XML states them: every entity, attribute,
/// relationship and fetch index with its XML attributes, `userInfo` entries and line number,
/// before any validation.
///
/// The XML parser produces it (``init(xml:path:)``), and ``ObjectModel/build(_:name:path:digest:)``
/// validates it and turns it into a model. `entity-codegen` also writes the current version's
/// definition as Swift literals, so a program can build its model at every start without
/// reading or parsing XML.
public struct ModelDefinition: Sendable, Equatable {
    /// One XML element: its attributes, its `userInfo` entries and the line it starts on.
    public struct Element: Sendable, Equatable {
        /// The element's XML attributes (`name`, `attributeType`, `optional`, …).
        public var attributes: [String: String]
        /// The line the element starts on, for errors.
        public var line: Int
        /// The element's `<userInfo><entry key= value=/></userInfo>` entries.
        public var userInfo: [String: String]

        /// An element with `attributes` on `line` and `userInfo` entries.
        public init(attributes: [String: String], line: Int, userInfo: [String: String] = [:]) {
            self.attributes = attributes
            self.line = line
            self.userInfo = userInfo
        }
    }

    /// A `<fetchIndex>` with its `<fetchIndexElement>` items.
    public struct FetchIndex: Sendable, Equatable {
        /// The `<fetchIndex>` element.
        public var element: Element
        /// Its `<fetchIndexElement>` elements, in order.
        public var items: [Element]

        /// A fetch index `element` over `items`.
        public init(element: Element, items: [Element] = []) {
            self.element = element
            self.items = items
        }
    }

    /// An `<entity>` with the elements declared inside it.
    public struct Entity: Sendable, Equatable {
        /// The `<entity>` element.
        public var element: Element
        /// Its `<attribute>` elements, in order.
        public var attributes: [Element]
        /// Its `<relationship>` elements, in order.
        public var relationships: [Element]
        /// Its `<fetchIndex>` elements, in order.
        public var fetchIndexes: [FetchIndex]

        /// An entity `element` with its attributes, relationships and fetch indexes.
        public init(element: Element, attributes: [Element] = [], relationships: [Element] = [], fetchIndexes: [FetchIndex] = []) {
            self.element = element
            self.attributes = attributes
            self.relationships = relationships
            self.fetchIndexes = fetchIndexes
        }
    }

    /// The entities, in declaration order.
    public var entities: [Entity]

    /// A definition of `entities`.
    public init(entities: [Entity] = []) {
        self.entities = entities
    }

    /// Reads the definitions of model XML (a `.xcdatamodel` folder's `contents` file); `path`
    /// names it in errors.
    /// - Throws: ``ModelError`` for XML that is malformed or not a Core Data model.
    public init(xml: Data, path: String) throws {
        self = try ModelXMLParser.parse(data: xml, path: path)
    }
}
