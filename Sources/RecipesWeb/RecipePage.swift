import RecipesKit
import HTTPSupport

/// One recipe: its photo, overview, type, prep time, ingredients in order with their
/// amounts, instructions, and the private notes when the store's password was given.
struct RecipePage {
    let details: RecipeDetails
    /// Whether the notes may be shown (the store is unlocked).
    let notesShown: Bool
    /// The session's CSRF token, for the delete form.
    let csrf: String
    /// A line above the recipe ("Saved."), if any.
    let notice: String?

    /// The page's `<main>`.
    func main() -> String {
        let link = "/recipes/\(PercentEncoding.queryValue(details.id))"
        var html = "<article class=\"recipe\" data-version=\"\(RecipeForm.version(of: details))\">\n"
        if let notice { html += "<p class=\"notice\" role=\"status\">\(HTML.escape(notice))</p>\n" }
        html += "<h1>\(HTML.escape(details.name))</h1>\n"
        if details.image != nil {
            html += "<img class=\"photo\" src=\"\(link)/photo\" alt=\"Photo of \(HTML.escape(details.name))\">\n"
        }
        var facts: [String] = []
        if let type = details.type, !type.isEmpty {
            facts.append("<dt>Type</dt><dd><a href=\"/\(HTML.query([("type", type)]))\">\(HTML.escape(type))</a></dd>")
        }
        if let prep = details.prepTime, !prep.isEmpty { facts.append("<dt>Prep time</dt><dd>\(HTML.escape(prep))</dd>") }
        if !facts.isEmpty { html += "<dl class=\"facts\">\(facts.joined())</dl>\n" }
        if let overview = details.overview, !overview.isEmpty {
            html += "<p class=\"overview\">\(HTML.escape(overview))</p>\n"
        }
        html += "<section class=\"ingredients\"><h2>Ingredients</h2>\n"
        if details.ingredients.isEmpty {
            html += "<p class=\"empty\">No ingredients listed.</p>\n"
        } else {
            html += "<ul>\n"
            for line in details.ingredients {
                let amount = line.amount.map { "<span class=\"amount\">\(HTML.escape($0))</span> " } ?? ""
                html += "<li>\(amount)<span class=\"ingredient\">\(HTML.escape(line.name ?? ""))</span></li>\n"
            }
            html += "</ul>\n"
        }
        html += "</section>\n"
        if let instructions = details.instructions, !instructions.isEmpty {
            html += "<section class=\"instructions\"><h2>Instructions</h2>\n"
            for paragraph in instructions.split(whereSeparator: \.isNewline) where !paragraph.allSatisfy(\.isWhitespace) {
                html += "<p>\(HTML.escape(String(paragraph)))</p>\n"
            }
            html += "</section>\n"
        }
        if notesShown, let notes = details.notes, !notes.isEmpty {
            html += "<section class=\"notes\"><h2>Private notes</h2>\n"
            for paragraph in notes.split(whereSeparator: \.isNewline) {
                html += "<p>\(HTML.escape(String(paragraph)))</p>\n"
            }
            html += "</section>\n"
        }
        html += """
            <div class="actions">
            <a class="button" href="\(link)/edit">Edit</a>
            <form action="\(link)/delete" method="post" data-confirm="Delete \(HTML.escape(details.name))? This cannot be undone.">
            <input type="hidden" name="csrf" value="\(HTML.escape(csrf))">
            <button type="submit" class="danger">Delete</button>
            </form>
            </div>
            </article>

            """
        return html
    }
}
