/// One object an import creates or updates. JSON: `{"action", "entity", "id", "name",
/// "keys"}` where `action` is `create` or `update` and `keys` lists the changed properties.
public struct ImportChange: Sendable, Equatable, Codable {
    /// What happens to the object.
    public enum Action: String, Sendable, Equatable, Codable {
        /// A new object.
        case create
        /// An existing object whose values differ from the set's.
        case update
    }

    /// What happens.
    public var action: Action
    /// `Recipe`, `Ingredient`, `RecipeType` or `Image`.
    public var entity: String
    /// The object's document ID.
    public var id: String
    /// A name for people: the recipe's, type's or ingredient's name; for an image, its recipe's.
    public var name: String
    /// The properties set or changed, sorted.
    public var keys: [String]

    /// Makes a change.
    public init(action: Action, entity: String, id: String, name: String, keys: [String]) {
        self.action = action
        self.entity = entity
        self.id = id
        self.name = name
        self.keys = keys
    }
}
