/// The orders `recipes list` can show recipes in.
public enum RecipeSort: String, Sendable, CaseIterable, Codable {
    /// By name, ignoring case (the default).
    case name
    /// By type name, untyped recipes last, then by name.
    case type
    /// By preparation time in minutes (read from the free text), unknown times last, then
    /// by name.
    case prepTime = "prep-time"
}
