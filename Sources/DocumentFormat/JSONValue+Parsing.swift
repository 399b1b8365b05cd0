public import Foundation

extension JSONValue {
    /// Parses JSON text into a value (integers kept exact), refusing anything that is not JSON
    /// with ``DocumentFormatError/invalidJSON(_:)``, so callers taking bodies from outside (HTTP,
    /// files, the command line) get the store's typed error. See `JSONParser` for the rules.
    public static func parse(_ data: Data) throws -> JSONValue {
        try JSONParser.parse(data)
    }

    /// Parses JSON text held in a string, over the string's own UTF-8 (no `Data` made of it).
    public static func parse(_ text: String) throws -> JSONValue {
        var text = text
        return try text.withUTF8 { try JSONParser.parse($0) }
    }

    /// Parses JSON text held in a byte buffer (for example an HTTP body) without copying it.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
        try JSONParser.parse(bytes)
    }

    /// Parses JSON text from outside while telling `meter` the memory the value being built is
    /// estimated to take (text bytes of strings plus a fixed share per value and key), in
    /// steps of about `step` bytes and the remainder at the end. A server hands untrusted
    /// bodies to it so what they build stays within a budget: whatever `meter` throws stops
    /// the parse there and is rethrown. Not JSON → ``DocumentFormatError/invalidJSON(_:)``.
    public static func parse(_ data: Data, meteringEvery step: Int, meter: @escaping (Int) throws -> Void) throws -> JSONValue {
        try JSONParser.parse(data, step: step, meter: meter)
    }

    /// Parses JSON text that must be an object, such as a document body.
    public static func parseObject(_ data: Data) throws -> JSONObject {
        guard case .object(let object) = try parse(data) else {
            throw DocumentFormatError.invalidJSON("a document body must be a JSON object")
        }
        return object
    }

    /// The JSON text of this value, with keys in `order` (canonical by default).
    public func jsonData(keyOrder order: JSONWriter.KeyOrder = .canonical) -> Data {
        JSONWriter(keyOrder: order).data(self)
    }
}
