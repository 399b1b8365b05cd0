import Foundation
import RecipesKit
import HTTPSupport

/// The book: a grid of recipe cards (thumbnail, name, type, prep time), a page at a time,
/// with the filter by type, the search and the sort.
struct BookPage {
    /// What the page shows, as its address's query gives it.
    struct Selection: Sendable, Equatable {
        /// The search text (`q`), matched as `recipes list --search` does.
        var search = ""
        /// The type filter (`type`).
        var type = ""
        /// The order (`sort`: `name`, `type` or `prep-time`).
        var sort = RecipeSort.name
        /// The page, from 1 (`page`).
        var page = 1

        /// The query of the page's address, without the defaults.
        func query(page: Int? = nil) -> String {
            let number = page ?? self.page
            return HTML.query([("q", search), ("type", type), ("sort", sort == .name ? nil : sort.rawValue),
                               ("page", number == 1 ? nil : String(number))])
        }
    }

    let selection: Selection
    let recipes: [RecipeCard]
    let total: Int
    let pageSize: Int
    let types: [RecipeTypeSummary]

    /// The number of pages (at least 1).
    var pageCount: Int { max(1, (total + pageSize - 1) / pageSize) }

    /// The page's `<main>`.
    func main() -> String {
        var html = "<h1>\(heading())</h1>\n"
        html += filters()
        if recipes.isEmpty {
            html += "<p class=\"empty\">\(emptyMessage())</p>\n"
        } else {
            html += "<ul class=\"grid\">\n"
            for recipe in recipes { html += card(recipe) }
            html += "</ul>\n"
        }
        html += pager()
        return html
    }

    /// "Recipes", or what the search and the filter select.
    func heading() -> String {
        var parts: [String] = []
        if !selection.type.isEmpty { parts.append(HTML.escape(selection.type)) }
        if !selection.search.isEmpty { parts.append("matching “\(HTML.escape(selection.search))”") }
        let count = "<span class=\"count\">\(total) recipe\(total == 1 ? "" : "s")</span>"
        return (parts.isEmpty ? "All recipes" : parts.joined(separator: " ")) + " " + count
    }

    private func emptyMessage() -> String {
        if selection.search.isEmpty && selection.type.isEmpty { return "The book is empty. <a href=\"/recipes/new\">Add a recipe</a>." }
        return "No recipe matches. <a href=\"/\">Show all recipes</a>."
    }

    /// The type filter and the sort, as one small form (a script submits it on change).
    private func filters() -> String {
        var html = "<form class=\"filters\" action=\"/\" method=\"get\">\n"
        if !selection.search.isEmpty {
            html += "<input type=\"hidden\" name=\"q\" value=\"\(HTML.escape(selection.search))\">\n"
        }
        html += "<label for=\"type\">Type</label>\n<select id=\"type\" name=\"type\" data-autosubmit>\n"
        html += "<option value=\"\"\(selection.type.isEmpty ? " selected" : "")>All types</option>\n"
        for type in types {
            let chosen = RecipeBookFolding.same(type.name, selection.type)
            html += "<option value=\"\(HTML.escape(type.name))\"\(chosen ? " selected" : "")>\(HTML.escape(type.name)) (\(type.recipeCount))</option>\n"
        }
        html += "</select>\n<label for=\"sort\">Sort by</label>\n<select id=\"sort\" name=\"sort\" data-autosubmit>\n"
        for (sort, label) in [(RecipeSort.name, "Name"), (.type, "Type"), (.prepTime, "Prep time")] {
            html += "<option value=\"\(sort.rawValue)\"\(sort == selection.sort ? " selected" : "")>\(label)</option>\n"
        }
        html += "</select>\n<button type=\"submit\" class=\"apply\">Show</button>\n</form>\n"
        return html
    }

    /// One recipe's card: its thumbnail (never the full photo), name, type and prep time.
    private func card(_ recipe: RecipeCard) -> String {
        let link = "/recipes/\(PercentEncoding.queryValue(recipe.id))"
        let picture = recipe.hasImage
            ? "<img src=\"\(link)/thumbnail\" alt=\"\(HTML.escape(recipe.name))\" loading=\"lazy\" width=\"320\" height=\"240\">"
            : "<span class=\"no-photo\" aria-hidden=\"true\"></span>"
        var details: [String] = []
        if let type = recipe.type, !type.isEmpty { details.append("<span class=\"type\">\(HTML.escape(type))</span>") }
        if let prep = recipe.prepTime, !prep.isEmpty { details.append("<span class=\"prep\">\(HTML.escape(prep))</span>") }
        return """
            <li class="card"><a href="\(link)">\(picture)<span class="name">\(HTML.escape(recipe.name))</span>\
            <span class="details">\(details.joined(separator: " · "))</span></a></li>

            """
    }

    /// Links to the previous and next pages.
    private func pager() -> String {
        guard pageCount > 1 else { return "" }
        var html = "<nav class=\"pager\" aria-label=\"Pages\">\n"
        if selection.page > 1 {
            html += "<a rel=\"prev\" href=\"/\(selection.query(page: selection.page - 1))\">Previous</a>\n"
        }
        html += "<span>Page \(selection.page) of \(pageCount)</span>\n"
        if selection.page < pageCount {
            html += "<a rel=\"next\" href=\"/\(selection.query(page: selection.page + 1))\">Next</a>\n"
        }
        return html + "</nav>\n"
    }
}

/// Names compared as the book compares them: ignoring case and accents.
enum RecipeBookFolding {
    /// Whether `a` and `b` are the same name to a person.
    static func same(_ a: String, _ b: String) -> Bool {
        a.compare(b, options: [.caseInsensitive, .diacriticInsensitive]) == .orderedSame
    }
}
