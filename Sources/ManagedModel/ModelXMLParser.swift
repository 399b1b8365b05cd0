import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads Xcode's model XML with FoundationXML's `XMLParser`, keeping line numbers.
/// Unknown elements (layout `<elements>`, configurations) are skipped.
final class ModelXMLParser: NSObject, XMLParserDelegate {
    /// Deepest element nesting accepted (Xcode's models use five levels).
    static let maximumDepth = 64

    private var model = ModelDefinition()
    private var sawModelRoot = false
    private var stack: [String] = []
    private var failure: ModelError?
    private let path: String
    private weak var parser: XMLParser?

    private init(path: String) { self.path = path }

    static func parse(data: Data, path: String) throws -> ModelDefinition {
        // FoundationXML traps on some invalid UTF-8 it is handed back by libxml2 (found by
        // fuzzing), so bytes that are not UTF-8 are refused before they reach it.
        if let line = firstInvalidUTF8Line(in: data) {
            throw ModelError(file: path, line: line, element: "XML",
                             reason: "the file is not valid UTF-8; save the model as UTF-8 XML")
        }
        let delegate = ModelXMLParser(path: path)
        let parser = XMLParser(data: data)
        delegate.parser = parser
        parser.delegate = delegate
        let ok = parser.parse()
        if let failure = delegate.failure { throw failure }
        if !ok {
            let message = parser.parserError.map { "\($0)" } ?? "unknown XML error"
            throw ModelError(file: path, line: max(parser.lineNumber, 1), element: "XML",
                             reason: "malformed XML (\(message)); fix the markup at this line")
        }
        if !delegate.sawModelRoot {
            throw ModelError(file: path, line: 1, element: "model",
                             reason: "no <model> root element; this is not a Core Data model file")
        }
        return delegate.model
    }

    /// The 1-based line holding the first byte that is not part of valid UTF-8, if any.
    static func firstInvalidUTF8Line(in data: Data) -> Int? {
        // Validate in one pass first; find the line only for a file that fails.
        let valid = data.withUnsafeBytes { raw in String(validating: raw.bindMemory(to: UInt8.self), as: UTF8.self) != nil }
        if valid { return nil }
        var bytes = data.makeIterator()
        var decoder = Unicode.UTF8.ForwardParser()
        var line = 1
        while true {
            switch decoder.parseScalar(from: &bytes) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") { line += 1 }
            case .error:
                return line
            case .emptyInput:
                return nil
            }
        }
    }

    private var line: Int { parser?.lineNumber ?? 0 }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        // Models nest a few levels; deeper nesting is refused before each element's path
        // (joined from the stack) makes loading quadratic.
        guard stack.count < Self.maximumDepth else {
            if failure == nil {
                failure = ModelError(file: self.path, line: max(parser.lineNumber, 1), element: "XML",
                                     reason: "elements nested deeper than \(Self.maximumDepth) levels; this is not a Core Data model")
            }
            parser.abortParsing()
            return
        }
        defer { stack.append(elementName) }
        let parent = stack.last
        let element = ModelDefinition.Element(attributes: attributeDict, line: parser.lineNumber)
        // Only elements on the model's own paths count; look-alikes elsewhere are ignored.
        let path = stack.joined(separator: "/")
        let inEntity = path == "model/entity" && !model.entities.isEmpty
        let inFetchIndex = path == "model/entity/fetchIndex" && !(model.entities.last?.fetchIndexes.isEmpty ?? true)
        switch (parent, elementName) {
        case (nil, "model"):
            sawModelRoot = true
        case ("model", "entity") where path == "model":
            model.entities.append(.init(element: element))
        case ("entity", "attribute") where inEntity:
            model.entities[model.entities.count - 1].attributes.append(element)
        case ("entity", "relationship") where inEntity:
            model.entities[model.entities.count - 1].relationships.append(element)
        case ("entity", "fetchIndex") where inEntity:
            model.entities[model.entities.count - 1].fetchIndexes.append(.init(element: element))
        case ("fetchIndex", "fetchIndexElement") where inFetchIndex:
            let e = model.entities.count - 1
            let f = model.entities[e].fetchIndexes.count - 1
            model.entities[e].fetchIndexes[f].items.append(element)
        case ("userInfo", "entry"):
            addUserInfo(key: attributeDict["key"] ?? "", value: attributeDict["value"] ?? "")
        default:
            break
        }
    }

    /// Attaches a `<userInfo><entry/>` to the element that owns the `<userInfo>`.
    private func addUserInfo(key: String, value: String) {
        guard !model.entities.isEmpty else { return }
        let e = model.entities.count - 1
        switch stack.joined(separator: "/") {
        case "model/entity/userInfo":
            model.entities[e].element.userInfo[key] = value
        case "model/entity/attribute/userInfo":
            let a = model.entities[e].attributes.count - 1
            if a >= 0 { model.entities[e].attributes[a].userInfo[key] = value }
        case "model/entity/relationship/userInfo":
            let r = model.entities[e].relationships.count - 1
            if r >= 0 { model.entities[e].relationships[r].userInfo[key] = value }
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?) {
        if let open = stack.last, open != elementName, failure == nil {
            failure = ModelError(file: path, line: parser.lineNumber, element: "XML",
                                 reason: "malformed XML: </\(elementName)> closes <\(open)>; close <\(open)> first")
            parser.abortParsing()
        }
        if !stack.isEmpty { stack.removeLast() }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if failure == nil {
            failure = ModelError(file: path, line: max(parser.lineNumber, 1), element: "XML",
                                 reason: "malformed XML (\(parseError)); fix the markup at this line")
        }
    }
}
