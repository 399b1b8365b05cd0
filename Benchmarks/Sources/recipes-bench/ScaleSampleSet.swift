import Foundation

/// A generated sample set in the JSON format `recipes import` reads: `recipes` recipes named
/// `Scale Recipe 000000`…, spread over eight types, each with eight ingredients drawn from
/// a fixed vocabulary. Exactly one recipe has the ingredient word "zanzibar", so a search
/// for it has one answer whatever the size.
enum ScaleSampleSet {
    /// The recipe types, in the order recipes cycle through them.
    static let typeNames = ["Soup", "Dessert", "Entrée", "Appetizer", "Salad", "Bread", "Drink", "Side"]

    private static let words = [
        "flour", "sugar", "butter", "egg", "milk", "salt", "pepper", "onion", "garlic", "tomato", "basil",
        "olive oil", "lemon", "rice", "lentils", "carrot", "celery", "thyme", "cumin", "paprika", "yogurt",
        "honey", "vinegar", "potato", "leek", "spinach", "mushroom", "ginger", "chili", "coconut milk",
    ]

    /// Writes the set to `url`, streaming it a recipe at a time.
    static func write(recipes: Int, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        var buffer = "{\"name\": \"scale\", \"recipes\": [\n"
        let special = recipes / 3
        for index in 0..<recipes {
            let name = String(format: "Scale Recipe %06d", index)
            var ingredients: [String] = []
            for line in 0..<8 {
                let word = index == special && line == 7 ? "zanzibar cloves" : words[(index * 7 + line * 13) % words.count]
                ingredients.append("{\"amount\": \"\(line + 1) tbsp\", \"name\": \"\(word.capitalized)\"}")
            }
            buffer += """
                {"name": "\(name)", "type": "\(typeNames[index % typeNames.count])", \
                "overview": "Generated recipe number \(index) for measuring the book at scale.", \
                "prepTime": "\(10 + index % 90) minutes", \
                "instructions": "Mix everything.\\nCook it gently.\\nServe.", \
                "ingredients": [\(ingredients.joined(separator: ", "))]}
                """
            buffer += index == recipes - 1 ? "\n" : ",\n"
            if buffer.utf8.count > 1 << 20 {
                handle.write(Data(buffer.utf8))
                buffer = ""
            }
        }
        buffer += "]}\n"
        handle.write(Data(buffer.utf8))
    }
}
