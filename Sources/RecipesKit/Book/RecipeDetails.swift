/// Everything `recipes show` prints about one recipe. Its JSON form (keys sorted, absent
/// values as `null`) is part of the program's stable interface: `{"id", "name", "type",
/// "overview", "prepTime", "instructions", "ingredients": [{"id", "amount", "name",
/// "displayOrder"}], "image": {"bytes", "mimeType"} | null, "thumbnail": … | null,
/// "notes": string | null, "notesEncrypted": bool}`. `notesEncrypted` is true when the
/// recipe has notes that are not shown (no password, or a value that cannot be decrypted).
public struct RecipeDetails: Sendable, Equatable, Codable {
    /// One ingredient line.
    public struct Line: Sendable, Equatable, Codable {
        /// The document ID.
        public var id: String
        /// How much.
        public var amount: String?
        /// What.
        public var name: String?
        /// Position in the recipe, from 0.
        public var displayOrder: Int

        /// Makes a line.
        public init(id: String, amount: String?, name: String?, displayOrder: Int) {
            self.id = id
            self.amount = amount
            self.name = name
            self.displayOrder = displayOrder
        }

        private enum CodingKeys: String, CodingKey { case id, amount, name, displayOrder }
    }

    /// The document ID.
    public var id: String
    /// The name.
    public var name: String
    /// The type's name.
    public var type: String?
    /// The one-line description.
    public var overview: String?
    /// The preparation time.
    public var prepTime: String?
    /// The method.
    public var instructions: String?
    /// The ingredient lines in display order.
    public var ingredients: [Line]
    /// The full-size picture's size and format.
    public var image: ImageInfo?
    /// The thumbnail's size and format.
    public var thumbnail: ImageInfo?
    /// The private notes, when they could be decrypted.
    public var notes: String?
    /// Whether the recipe has notes that are not shown (see ``notesProblem``).
    public var notesEncrypted: Bool
    /// Why notes are not shown: no password, or the value cannot be decrypted (with the
    /// document ID). Not part of the JSON form.
    public var notesProblem: String?
    /// Makes details.
    public init(id: String, name: String, type: String?, overview: String?, prepTime: String?, instructions: String?,
                ingredients: [Line], image: ImageInfo?, thumbnail: ImageInfo?,
                notes: String? = nil, notesEncrypted: Bool = false, notesProblem: String? = nil) {
        self.notes = notes
        self.notesEncrypted = notesEncrypted
        self.notesProblem = notesProblem
        self.id = id
        self.name = name
        self.type = type
        self.overview = overview
        self.prepTime = prepTime
        self.instructions = instructions
        self.ingredients = ingredients
        self.image = image
        self.thumbnail = thumbnail
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, type, overview, prepTime, instructions, ingredients, image, thumbnail, notes, notesEncrypted
    }
}
