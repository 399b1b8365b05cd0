/// The raw content of a model file: elements with their XML attributes and line numbers,
/// before any validation.
struct ParsedModel {
    struct Element {
        var attributes: [String: String]
        var line: Int
        var userInfo: [String: String] = [:]
    }
    struct Entity {
        var element: Element
        var attributes: [Element] = []
        var relationships: [Element] = []
        var fetchIndexes: [(element: Element, items: [Element])] = []
    }
    var entities: [Entity] = []
}
