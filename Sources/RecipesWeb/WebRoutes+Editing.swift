import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RecipesKit
import HTTPSupport

/// Adding, editing and deleting recipes: the forms and the posts that write.
extension WebRoutes {
    func newForm(_ request: Request, _ visit: Visit) async throws -> Response {
        try await formPage(visit, RecipeForm(notesAvailable: book.store.isUnlocked), recipeID: nil)
    }

    func editForm(_ request: Request, _ visit: Visit, id: String) async throws -> Response {
        guard let details = try await book.read({ book in try book.recipe(id: id).map { try book.details(of: $0) } }) else {
            return notFound(visit)
        }
        return try await formPage(visit, RecipeForm(details: details, notesAvailable: book.store.isUnlocked), recipeID: id)
    }

    func formPage(_ visit: Visit, _ form: RecipeForm, recipeID: String?, status: HTTPResponse.Status = .ok,
                          conflict: RecipeDetails? = nil) async throws -> Response {
        let web = self.book
        let types = try await book.readAt { book, token in try web.remembered("types", at: token) { try book.types() }.map(\.name) }
        let view = RecipeFormPage(form: form, recipeID: recipeID, types: types, csrf: visit.csrf, conflict: conflict)
        return page(visit, status: status, title: view.title, main: view.main())
    }

    /// Writes through the book, then lets the change feed take in the write before the route
    /// answers (``ChangeFeed/check()``): the page it answers with starts its event stream past
    /// its own save, instead of being told at the next poll to fetch itself again.
    func write<T: Sendable>(_ body: @escaping @Sendable (RecipeBook) throws -> T) async throws -> T {
        let result = try await book.write(body)
        await feed.check()
        return result
    }

    func add(_ request: Request, _ visit: Visit) async throws -> Response {
        var form = RecipeForm(posted: visit.form!, notesAvailable: book.store.isUnlocked)
        if let submission = form.submission, let created = submissions.result(of: submission) {
            return WebResponse.redirect(to: "/recipes/\(PercentEncoding.queryValue(created))?saved=1")
        }
        guard form.check() else { return try await formPage(visit, form, recipeID: nil, status: .unprocessableContent) }
        let draft = form.draft
        let submission = form.submission
        let outcome: Result<String, RecipesError> = try await write { book in
            // Checked again under the write lock: the first of two posts of a form may have
            // finished while the second waited.
            if let submission, let created = self.submissions.result(of: submission) { return .success(created) }
            do {
                let id = try book.add(draft).id
                if let submission { self.submissions.record(submission, result: id) }
                return .success(id)
            } catch let error as RecipesError {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let id):
            return WebResponse.redirect(to: "/recipes/\(PercentEncoding.queryValue(id))?saved=1")
        case .failure(let error) where error.isStoreLocked:
            form.errors["form"] = RecipeForm.sentence(Self.lockedMessage)
        case .failure(let error):
            form.show(error)
        }
        form.photo = nil
        return try await formPage(visit, form, recipeID: nil, status: .unprocessableContent)
    }

    func save(_ request: Request, _ visit: Visit, id: String) async throws -> Response {
        var form = RecipeForm(posted: visit.form!, notesAvailable: book.store.isUnlocked)
        guard form.check() else {
            form.hasPhoto = try await book.read { book in try book.recipe(id: id).map { try book.details(of: $0).image != nil } ?? false }
            return try await formPage(visit, form, recipeID: id, status: .unprocessableContent)
        }
        let edit = form.edit
        let based = form.version
        enum Outcome: Sendable {
            case saved
            case missing
            case conflict(RecipeDetails)
            case refused(RecipesError)
        }
        let outcome: Outcome = try await write { book in
            guard let recipe = try book.recipe(id: id) else { return .missing }
            let current = try book.details(of: recipe)
            if let based, based != RecipeForm.version(of: current) { return .conflict(current) }
            do {
                try book.edit(recipe, edit)
                return .saved
            } catch let error as RecipesError {
                return .refused(error)
            }
        }
        switch outcome {
        case .saved:
            return WebResponse.redirect(to: "/recipes/\(PercentEncoding.queryValue(id))?saved=1")
        case .missing:
            return notFound(visit)
        case .conflict(let current):
            form.version = RecipeForm.version(of: current)
            form.hasPhoto = current.image != nil
            form.photo = nil
            return try await formPage(visit, form, recipeID: id, status: .conflict, conflict: current)
        case .refused(let error):
            if error.isStoreLocked { form.errors["form"] = RecipeForm.sentence(Self.lockedMessage) } else { form.show(error) }
            form.hasPhoto = try await book.read { book in try book.recipe(id: id).map { try book.details(of: $0).image != nil } ?? false }
            form.photo = nil
            return try await formPage(visit, form, recipeID: id, status: .unprocessableContent)
        }
    }

    func confirmDelete(_ request: Request, _ visit: Visit, id: String, form: PostedForm?) async throws -> Response {
        guard let name = try await book.read({ book in try book.recipe(id: id).map { try book.details(of: $0).name } }) else {
            return notFound(visit)
        }
        let link = "/recipes/\(PercentEncoding.queryValue(id))"
        let main = """
            <h1>Delete \(HTML.escape(name))?</h1>
            <p>The recipe, its ingredients and its photo are deleted from this book, and from the others when they next sync.</p>
            <form action="\(link)/delete" method="post">
            <input type="hidden" name="csrf" value="\(HTML.escape(visit.csrf))">
            <input type="hidden" name="confirmed" value="yes">
            <button type="submit" class="danger">Delete</button>
            <a class="button" href="\(link)">Keep it</a>
            </form>
            """
        return page(visit, title: "Delete \(name)", main: main)
    }

    func delete(_ request: Request, _ visit: Visit, id: String) async throws -> Response {
        guard visit.form?.text("confirmed") == "yes" else { return try await confirmDelete(request, visit, id: id, form: visit.form) }
        let deleted = try await write { book -> Bool in
            guard let recipe = try book.recipe(id: id) else { return false }
            try book.delete(recipe)
            return true
        }
        return deleted ? WebResponse.redirect(to: "/") : notFound(visit)
    }
}
