import RecipesKit
import HTTPSupport

/// The add and edit form: every field of `recipes add` and `edit`, the ingredient rows
/// (which a script lets a person add, remove and move; without it, blank rows to fill), and
/// the photo, chosen from the device or its camera. Each message stands next to its field.
struct RecipeFormPage {
    let form: RecipeForm
    /// The recipe edited; `nil` for a new one.
    let recipeID: String?
    /// The types, offered as suggestions.
    let types: [String]
    /// The session's CSRF token.
    let csrf: String
    /// The recipe as it is now, when it changed while the form was being filled in.
    let conflict: RecipeDetails?

    /// The page's title.
    var title: String { recipeID == nil ? "Add a recipe" : "Edit \(form.name)" }

    /// The page's `<main>`.
    func main() -> String {
        let action = recipeID.map { "/recipes/\(PercentEncoding.queryValue($0))" } ?? "/recipes"
        var html = "<h1>\(HTML.escape(title))</h1>\n"
        if let conflict { html += conflictNotice(conflict) }
        if let message = form.errors["form"] { html += "<p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>\n" }
        if !form.errors.isEmpty, form.errors["form"] == nil {
            html += "<p class=\"error\" role=\"alert\">Nothing was saved: see the messages below.</p>\n"
        }
        html += "<form class=\"recipe-form\" action=\"\(action)\" method=\"post\" enctype=\"multipart/form-data\">\n"
        html += hidden("csrf", csrf)
        if let version = form.version { html += hidden("version", version) }
        if let submission = form.submission { html += hidden("submission", submission) }
        html += field("name", "Name", input: "<input id=\"name\" name=\"name\" required maxlength=\"1000000\" value=\"\(HTML.escape(form.name))\"\(describedBy("name"))>")
        html += field("type", "Type", input: "<input id=\"type\" name=\"type\" list=\"types\" value=\"\(HTML.escape(form.type))\"\(describedBy("type"))>"
                      + "<datalist id=\"types\">" + types.map { "<option value=\"\(HTML.escape($0))\">" }.joined() + "</datalist>")
        html += field("prepTime", "Prep time", input: "<input id=\"prepTime\" name=\"prepTime\" placeholder=\"40 minutes\" value=\"\(HTML.escape(form.prepTime))\"\(describedBy("prepTime"))>")
        html += field("overview", "Overview", input: "<input id=\"overview\" name=\"overview\" value=\"\(HTML.escape(form.overview))\"\(describedBy("overview"))>")
        html += ingredientRows()
        html += field("instructions", "Instructions", input: "<textarea id=\"instructions\" name=\"instructions\" rows=\"8\"\(describedBy("instructions"))>\(HTML.escape(form.instructions))</textarea>")
        if let notes = form.notes {
            html += field("notes", "Private notes (stored encrypted)", input: "<textarea id=\"notes\" name=\"notes\" rows=\"4\"\(describedBy("notes"))>\(HTML.escape(notes))</textarea>")
        }
        html += photoField()
        html += "<div class=\"actions\"><button type=\"submit\" class=\"primary\">\(recipeID == nil ? "Add the recipe" : "Save")</button>\n"
        html += "<a class=\"button\" href=\"\(recipeID.map { "/recipes/\(PercentEncoding.queryValue($0))" } ?? "/")\">Cancel</a></div>\n"
        html += "</form>\n"
        return html
    }

    private func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTML.escape(value))\">\n"
    }

    private func describedBy(_ field: String) -> String {
        form.errors[field] == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"\(field)-error\""
    }

    private func message(_ field: String) -> String {
        form.errors[field].map { "<p class=\"error\" id=\"\(field)-error\">\(HTML.escape($0))</p>\n" } ?? ""
    }

    /// A labelled field with its message.
    private func field(_ name: String, _ label: String, input: String) -> String {
        "<div class=\"field\"><label for=\"\(name)\">\(HTML.escape(label))</label>\n\(input)\n\(message(name))</div>\n"
    }

    /// The ingredient rows: the recipe's, then blank ones; each with a label per input and
    /// buttons the script uses to move and remove it.
    private func ingredientRows() -> String {
        var html = "<fieldset class=\"ingredients\" id=\"ingredients\"><legend>Ingredients</legend>\n" + message("ingredients")
        html += "<ol class=\"rows\" data-rows>\n"
        let rows = form.lines + Array(repeating: RecipeForm.Line(amount: "", name: ""), count: RecipeForm.blankRows)
        for (index, line) in rows.enumerated() {
            let number = index + 1
            html += """
                <li class="row">
                <label class="hidden" for="amount-\(number)">Amount \(number)</label>
                <input id="amount-\(number)" class="amount" name="amount" placeholder="Amount" value="\(HTML.escape(line.amount))">
                <label class="hidden" for="ingredient-\(number)">Ingredient \(number)</label>
                <input id="ingredient-\(number)" class="ingredient" name="ingredient" placeholder="Ingredient" value="\(HTML.escape(line.name))"\(describedBy("ingredient-\(index)"))>
                <span class="row-tools" hidden>
                <button type="button" data-move="up" aria-label="Move up">↑</button>
                <button type="button" data-move="down" aria-label="Move down">↓</button>
                <button type="button" data-remove aria-label="Remove this ingredient">✕</button>
                </span>
                \(message("ingredient-\(index)"))</li>

                """
        }
        html += "</ol>\n<button type=\"button\" class=\"add-row\" data-add-row hidden>Add an ingredient</button>\n</fieldset>\n"
        return html
    }

    /// The photo: a file input taking JPEG or PNG (a phone offers its camera too), and for
    /// a recipe with one, a box to remove it.
    private func photoField() -> String {
        var html = "<div class=\"field photo-field\"><label for=\"photo\">\(form.hasPhoto ? "Replace the photo" : "Photo") (JPEG or PNG, at most 10 MB)</label>\n"
        html += "<input id=\"photo\" name=\"photo\" type=\"file\" accept=\"image/jpeg,image/png\"\(describedBy("photo"))>\n"
        html += message("photo")
        if form.hasPhoto, let recipeID {
            html += "<img class=\"current-photo\" src=\"/recipes/\(PercentEncoding.queryValue(recipeID))/thumbnail\" alt=\"The current photo\">\n"
            html += "<label class=\"check\"><input type=\"checkbox\" name=\"removePhoto\" value=\"yes\"\(form.removePhoto ? " checked" : "")> Remove the photo</label>\n"
        }
        return html + "</div>\n"
    }

    /// The notice of a change made while the form was filled in, with the recipe as it is
    /// now; the person's own text stays in the form below.
    private func conflictNotice(_ current: RecipeDetails) -> String {
        var html = "<div class=\"conflict\" role=\"alert\"><p><strong>This recipe was changed elsewhere while you were editing it</strong> "
        html += "(in another window, a terminal or by a sync). Nothing was saved. Your version is in the form below; "
        html += "saving it again replaces the other change. This is the recipe as it is now:</p>\n<dl>"
        html += "<dt>Name</dt><dd>\(HTML.escape(current.name))</dd>"
        if let type = current.type { html += "<dt>Type</dt><dd>\(HTML.escape(type))</dd>" }
        if let prep = current.prepTime { html += "<dt>Prep time</dt><dd>\(HTML.escape(prep))</dd>" }
        if let overview = current.overview { html += "<dt>Overview</dt><dd>\(HTML.escape(overview))</dd>" }
        let lines = current.ingredients.map { [$0.amount, $0.name].compactMap { $0 }.joined(separator: " ") }
        html += "<dt>Ingredients</dt><dd>\(HTML.escape(lines.joined(separator: "; ")))</dd>"
        if let instructions = current.instructions { html += "<dt>Instructions</dt><dd>\(HTML.escape(instructions))</dd>" }
        return html + "</dl></div>\n"
    }
}
