import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RecipesKit
import HTTPSupport

/// The book and a recipe: the pages that only read.
extension WebRoutes {
    func bookPage(_ request: Request, _ visit: Visit) async throws -> Response {
        let parameters = request.uri.queryParameters
        var selection = BookPage.Selection()
        selection.search = parameters["q"].map { String($0.prefix(200)) } ?? ""
        selection.type = parameters["type"].map { String($0.prefix(200)) } ?? ""
        selection.sort = parameters["sort"].flatMap { RecipeSort(rawValue: String($0)) } ?? .name
        selection.page = parameters["page"].flatMap { Int(String($0)) }.map { min(max($0, 1), 1_000_000) } ?? 1
        let pageSize = configuration.pageSize
        let chosen = selection
        let web = self.book
        let page = try await book.readAt { book, token in
            let query = RecipeQuery(type: chosen.type.isEmpty ? nil : chosen.type, search: chosen.search.isEmpty ? nil : chosen.search,
                                    sort: chosen.sort, limit: pageSize, offset: (chosen.page - 1) * pageSize)
            let total = try web.remembered("count\u{0}\(chosen.type)\u{0}\(chosen.search)", at: token) {
                try book.count(matching: RecipeQuery(type: query.type, search: query.search))
            }
            let types = try web.remembered("types", at: token) { try book.types() }
            return BookPage(selection: chosen, recipes: try book.cards(query), total: total, pageSize: pageSize, types: types)
        }
        return self.page(visit, title: selection.search.isEmpty ? "The book" : "Search", main: page.main(), search: selection.search)
    }

    func recipePage(_ request: Request, _ visit: Visit, id: String, notice: String? = nil) async throws -> Response {
        guard let details = try await book.read({ book in try book.recipe(id: id).map { try book.details(of: $0) } }) else {
            return notFound(visit)
        }
        let main = RecipePage(details: details, notesShown: book.store.isUnlocked, csrf: visit.csrf,
                              notice: notice ?? request.uri.queryParameters["saved"].map { _ in "Saved." }).main()
        return page(visit, title: details.name, main: main)
    }
}
