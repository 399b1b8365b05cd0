import Foundation

extension JSONValue {
    /// Parses JSON text into a value (integers kept exact), refusing anything that is not JSON
    /// with `DocumentStoreError.invalidJSON`, so callers taking bodies from outside (HTTP,
    /// files, the command line) get the store's typed error.
    public static func parse(_ data: Data) throws -> JSONValue {
        let any: Any
        do {
            any = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw DocumentStoreError.invalidJSON("the text is not JSON (\(error.localizedDescription))")
        }
        return JSONBodyDecoder.value(from: any)
    }

    /// Parses JSON text that must be an object, such as a document body.
    public static func parseObject(_ data: Data) throws -> JSONObject {
        guard case .object(let object) = try parse(data) else {
            throw DocumentStoreError.invalidJSON("a document body must be a JSON object")
        }
        return object
    }
}
