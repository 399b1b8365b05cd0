import InteropSupport
import DocumentStore
import Foundation
import DocumentFormat

/// One recorded exchange with CouchDB 3.4.3 from `Tests/Fixtures/couchdb-3.4.3/*.jsonl`.
struct RecordedExchange: Sendable {
    var method: String
    var path: String
    var requestHeaders: [String: String]
    var requestBody: Data
    var status: Int
    var responseHeaders: [String: String]
    var responseBody: Data

    /// A request header, by case-insensitive name.
    func requestHeader(_ name: String) -> String? {
        requestHeaders.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// A response header, by case-insensitive name.
    func responseHeader(_ name: String) -> String? {
        responseHeaders.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    /// The recorded response body as JSON, if it is JSON.
    var responseJSON: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: responseBody) }
}

/// Loads the recordings, turning the `\xNN` escapes of non-UTF-8 bytes back into bytes.
enum Recording {
    /// The package root, found from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The exchanges of `Tests/Fixtures/couchdb-3.4.3/<name>`.
    static func load(_ name: String) throws -> [RecordedExchange] {
        let url = packageRoot.appendingPathComponent("Tests/Fixtures/couchdb-3.4.3/\(name)").standardizedFileURL
        let text = try String(contentsOf: url, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            let request = object["request"] as! [String: Any]
            let response = object["response"] as! [String: Any]
            return RecordedExchange(
                method: request["method"] as! String,
                path: request["path"] as! String,
                requestHeaders: request["headers"] as? [String: String] ?? [:],
                requestBody: bytes(request["body"] as? String ?? ""),
                status: response["status"] as! Int,
                responseHeaders: response["headers"] as? [String: String] ?? [:],
                responseBody: bytes(response["body"] as? String ?? ""))
        }
    }

    /// The recorded text as bytes: characters as UTF-8, `\xNN` as the byte NN.
    static func bytes(_ text: String) -> Data {
        var out = Data()
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            if scalars[index] == "\\", index + 3 < scalars.count, scalars[index + 1] == "x",
               let byte = UInt8(String(String.UnicodeScalarView(scalars[(index + 2)...(index + 3)])), radix: 16) {
                out.append(byte)
                index += 4
            } else {
                out.append(contentsOf: Array(String(scalars[index]).utf8))
                index += 1
            }
        }
        return out
    }
}

/// Compares reply shapes: every member CouchDB sent must be present in ours with a value of
/// the same JSON type, recursively; array elements are matched by `id`/`key` when they have
/// one, else by position.
enum Shape {
    /// Differences between `ours` and CouchDB's `theirs`, as readable paths; empty when alike.
    static func differences(_ ours: JSONValue, _ theirs: JSONValue, path: String = "$") -> [String] {
        switch (ours, theirs) {
        case (_, .null):
            return []
        case (.object(let mine), .object(let expected)):
            var problems = [String]()
            for (key, value) in expected {
                guard let counterpart = mine[key] else {
                    problems.append("\(path).\(key) missing")
                    continue
                }
                problems += differences(counterpart, value, path: "\(path).\(key)")
            }
            return problems
        case (.array(let mine), .array(let expected)):
            var problems = [String]()
            for (index, element) in expected.enumerated() {
                if let identity = identity(of: element) {
                    guard let match = mine.first(where: { self.identity(of: $0) == identity }) else {
                        problems.append("\(path)[\(identity)] missing")
                        continue
                    }
                    problems += differences(match, element, path: "\(path)[\(identity)]")
                } else if index < mine.count {
                    problems += differences(mine[index], element, path: "\(path)[\(index)]")
                } else if element.objectValue != nil || element.arrayValue != nil {
                    problems.append("\(path)[\(index)] missing")
                }
            }
            return problems
        default:
            return kind(ours) == kind(theirs) ? [] : ["\(path): \(kind(ours)) instead of \(kind(theirs))"]
        }
    }

    private static func identity(of value: JSONValue) -> String? {
        guard let object = value.objectValue else { return nil }
        if let id = object["id"]?.stringValue { return id }
        if let key = object["key"]?.stringValue { return key }
        return nil
    }

    private static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: return "null"
        case .bool: return "bool"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}
