/// A JSON object: the body of a document or of a local document.
public typealias JSONObject = [String: JSONValue]
