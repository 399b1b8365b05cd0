import DocumentStore
public import DocumentFormat

/// The `CDTISMetaData` document the original iOS app's incremental store writes for the
/// recipes model: its store metadata and a description of every entity and property. Tests
/// put it in a database as if that app had synced there first, then check that this project
/// reads the database and never rewrites the other app's document.
public enum OriginalAppMetadata {
    /// The revision the other app gave its document.
    public static let rev = RevisionID("1-b5a2aab9497c27997c8e3391e235275d")!

    /// The document's body.
    public static var body: JSONObject {
        func property(_ type: String, _ destination: String? = nil) -> JSONValue {
            var p: JSONObject = ["typeName": .string(type), "versionHash": "cdcdcdcd"]
            if let destination { p["destination"] = .string(destination) }
            return .object(p)
        }
        let objectModel: JSONObject = [
            "Recipe": ["versionHash": "abababab", "properties": [
                "name": property("utf8"), "overview": property("utf8"), "instructions": property("utf8"), "prepTime": property("utf8"),
                "thumbnailImage": property("binary"), "type": property("relation-to-one", "RecipeType"),
                "ingredients": property("relation-to-many", "Ingredient"), "image": property("relation-to-one", "Image"),
            ]],
            "Ingredient": ["versionHash": "abababab", "properties": [
                "name": property("utf8"), "amount": property("utf8"), "displayOrder": property("int16"),
                "recipe": property("relation-to-one", "Recipe"),
            ]],
            "RecipeType": ["versionHash": "abababab", "properties": ["name": property("utf8"), "recipes": property("relation-to-many", "Recipe")]],
            "Image": ["versionHash": "abababab", "properties": ["image": property("binary"), "recipe": property("relation-to-one", "Recipe")]],
        ]
        return [
            "metaData": ["NSStoreType": "CDTIncrementalStore", "NSStoreUUID": "5E0C6A43-3F4B-4C2B-9B1E-0D1B2C3D4E5F",
                         "NSStoreModelVersionHashes": ["Recipe": "q6urq6ur"]],
            "objectModel": .object(objectModel),
        ]
    }
}
