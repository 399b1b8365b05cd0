import Foundation
/// A location inside a JSON document in the usual `$.recipes[3].name` notation, used to
/// point a sample set's author at the exact value that is wrong.
public struct JSONPath: Sendable, Equatable, Hashable, CustomStringConvertible {
    private var components: [Component]

    private enum Component: Sendable, Equatable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The document's root, `$`.
    public static let root = JSONPath(components: [])

    /// The path of the member `key` of the object at this path.
    public func appending(_ key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// The path of element `index` of the array at this path.
    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// `$`, then `.key` for plain identifiers, `["odd key"]` for anything else, `[n]` for
    /// array elements.
    public var description: String {
        var text = "$"
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key):
                if Self.isPlainIdentifier(key) {
                    text += ".\(key)"
                } else {
                    let escaped = key.replacingOccurrences(of: "\\", with: "\\\\")
                        .replacingOccurrences(of: "\"", with: "\\\"")
                    text += "[\"\(escaped)\"]"
                }
            }
        }
        return text
    }

    private static func isPlainIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return key.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
    }
}
