import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RecipesKit
import HTTPSupport

/// What each address of the web app does. Every answer carries the security headers
/// (``WebResponse``); every request is first checked for its `Host` (a page of another
/// site reached through DNS rebinding is refused), its session, and, when the server is
/// bound beyond loopback, its login; every post for its CSRF token.
struct WebRoutes: Sendable {
    let book: WebBook
    let configuration: WebConfiguration
    let assets: WebAssets
    let feed: ChangeFeed
    let sessions = WebSessions()
    let submissions = SubmittedForms()
    let thumbnails = ThumbnailCache()

    /// Bytes a posted form may have: a 10 MB photo and the recipe's text around it.
    static let maximumFormBytes = 16 * 1024 * 1024

    /// The router with every route.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { request, _ in await respond(request) { try await bookPage($0, $1) } }
        router.get("/recipes/new") { request, _ in await respond(request) { try await newForm($0, $1) } }
        router.post("/recipes") { request, _ in await respond(request, post: true) { try await add($0, $1) } }
        router.get("/recipes/:id") { request, context in
            await respond(request) { try await recipePage($0, $1, id: context.parameters.get("id") ?? "") }
        }
        router.post("/recipes/:id") { request, context in
            await respond(request, post: true) { try await save($0, $1, id: context.parameters.get("id") ?? "") }
        }
        router.get("/recipes/:id/edit") { request, context in
            await respond(request) { try await editForm($0, $1, id: context.parameters.get("id") ?? "") }
        }
        router.get("/recipes/:id/delete") { request, context in
            await respond(request) { try await confirmDelete($0, $1, id: context.parameters.get("id") ?? "", form: nil) }
        }
        router.post("/recipes/:id/delete") { request, context in
            await respond(request, post: true) { try await delete($0, $1, id: context.parameters.get("id") ?? "") }
        }
        for kind in StoredPhoto.Kind.allCases {
            router.get("/recipes/:id/\(kind.rawValue)") { request, context in
                await respond(request) { try await picture($0, $1, id: context.parameters.get("id") ?? "", kind: kind) }
            }
        }
        router.get("/assets/:name") { request, context in
            await respond(request, public: true) { request, _ in asset(request, name: context.parameters.get("name") ?? "") }
        }
        router.get("/events") { request, _ in await respond(request) { _, _ in events() } }
        router.get("/login") { request, _ in await respond(request, public: true) { try await loginPage($0, $1, message: nil) } }
        router.post("/login") { request, _ in await respond(request, post: true, public: true) { try await login($0, $1) } }
        router.post("/logout") { request, _ in await respond(request, post: true, public: true) { try await logout($0, $1) } }
        return router
    }

    // MARK: - The frame of every request

    /// The request's session and what it may do.
    struct Visit: Sendable {
        /// The session ID.
        var session: String
        /// Whether the session was made by this request (its cookie must be set).
        var isNew: Bool
        /// The session's CSRF token.
        var csrf: String
        /// Whether it logged in (always true on loopback, where no login is asked).
        var loggedIn: Bool
        /// The posted form, for a post.
        var form: PostedForm?
    }

    /// Runs `handler` for `request` after the checks every request gets, and turns whatever
    /// it throws into a page saying what went wrong.
    /// - Parameters:
    ///   - post: a form post: its body is read, and refused without the session's CSRF token.
    ///   - public: reachable before logging in (the login page, the stylesheet).
    private func respond(_ request: Request, post: Bool = false, public isPublic: Bool = false,
                         _ handler: @Sendable (Request, Visit) async throws -> Response) async -> Response {
        var request = request
        let started = ContinuousClock.now
        if let refusal = checkHost(request) { return refusal }
        let cookie = request.cookies[WebSessions.cookieName]?.value
        let known = cookie.map(sessions.isKnown) ?? false
        let session = (known ? cookie : nil) ?? sessions.start()
        var visit = Visit(session: session, isNew: !known, csrf: sessions.csrfToken(for: session),
                          loggedIn: !configuration.requiresLogin || sessions.isLoggedIn(session))
        var response: Response
        do {
            if !visit.loggedIn && !isPublic {
                response = post ? page(visit, status: .forbidden, title: "Log in", main: LoginPage.main(csrf: visit.csrf, next: "/", message: "Log in first."))
                    : WebResponse.redirect(to: "/login" + HTML.query([("next", request.uri.path + (request.uri.query.map { "?" + $0 } ?? ""))]))
            } else if post {
                let body: ByteBuffer
                do {
                    body = try await request.collectBody(upTo: Self.maximumFormBytes)
                } catch {
                    response = page(visit, status: .contentTooLarge, title: "Too large",
                                    main: "<h1>Nothing was saved</h1><p class=\"error\" role=\"alert\">The form was over \(Self.maximumFormBytes / 1024 / 1024) MB. A photo may have at most 10 MB: go back and choose a smaller one.</p>")
                    return finish(response, visit, started: started)
                }
                let form = try PostedForm(body: Data(body.readableBytesView), contentType: request.headers[.contentType])
                guard !visit.isNew, sessions.checkCSRF(form.text("csrf"), session: visit.session) else {
                    response = page(visit, status: .forbidden, title: "Refused",
                                    main: "<h1>Nothing was saved</h1><p class=\"error\" role=\"alert\">This form did not come from this page, or it is too old (the server may have restarted). Go back, reload the page and send it again.</p>")
                    return finish(response, visit, started: started)
                }
                visit.form = form
                response = try await handler(request, visit)
            } else {
                response = try await handler(request, visit)
            }
        } catch let error as PostedForm.FormatError {
            response = page(visit, status: .badRequest, title: "Not understood",
                            main: "<h1>Nothing was saved</h1><p class=\"error\" role=\"alert\">\(HTML.escape(RecipeForm.sentence(error.description)))</p>")
        } catch let error as RecipesError {
            let locked = error.isStoreLocked
            response = page(visit, status: locked ? .serviceUnavailable : .internalServerError, title: "Not done",
                            main: "<h1>Nothing was changed</h1><p class=\"error\" role=\"alert\">\(HTML.escape(RecipeForm.sentence(locked ? Self.lockedMessage : error.description)))</p>")
        } catch {
            response = page(visit, status: .internalServerError, title: "Not done",
                            main: "<h1>Nothing was changed</h1><p class=\"error\" role=\"alert\">\(HTML.escape(RecipeForm.sentence(String(describing: error))))</p>")
        }
        return finish(response, visit, started: started)
    }

    /// What a write says when another process (a sync, an import) holds the store.
    static let lockedMessage = "the book is busy: another program (a running sync or import) is writing to it. Nothing was changed; wait a moment and send the form again"

    /// Adds the session cookie when it is new, and the time the server took to make the
    /// answer (`Server-Timing`, which browsers' developer tools show and the benchmark reads).
    private func finish(_ response: Response, _ visit: Visit, started: ContinuousClock.Instant) -> Response {
        var response = response
        if visit.isNew { response.setCookie(WebResponse.sessionCookie(visit.session, secure: configuration.servesTLS)) }
        let elapsed = (ContinuousClock.now - started).components
        let milliseconds = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        response.headers[WebResponse.serverTiming] = "app;dur=" + String(format: "%.3f", milliseconds)
        if configuration.servesTLS { response.headers[.strictTransportSecurity] = WebResponse.strictTransportSecurity }
        return response
    }

    /// Refuses a request whose `Host` is not this server's: on loopback, only loopback
    /// names, so that a page of another site whose name was pointed at 127.0.0.1 cannot
    /// read the book.
    private func checkHost(_ request: Request) -> Response? {
        guard !configuration.requiresLogin else { return nil }
        let host = request.head.authority ?? ""
        let name: Substring
        if host.hasPrefix("[") {
            name = host.split(separator: "]").first.map { $0 + "]" } ?? ""
        } else {
            name = host.split(separator: ":").first ?? ""
        }
        if WebConfiguration.isLoopback(String(name)) || String(name) == configuration.host { return nil }
        return WebResponse.text(status: .misdirectedRequest, "This server answers only to localhost and 127.0.0.1.\n")
    }

    /// A page in the common frame.
    func page(_ visit: Visit, status: HTTPResponse.Status = .ok, title: String, main: String, search: String = "") -> Response {
        let layout = PageLayout(assets: assets, loggedIn: configuration.requiresLogin && visit.loggedIn, csrf: visit.csrf)
        return WebResponse.html(status: status, layout.document(title: title, main: main, search: search))
    }

    private func notFound(_ visit: Visit) -> Response {
        page(visit, status: .notFound, title: "Not found",
             main: "<h1>No such recipe</h1><p>It may have been deleted. <a href=\"/\">Back to the book</a>.</p>")
    }

    // MARK: - The book and a recipe

    private func bookPage(_ request: Request, _ visit: Visit) async throws -> Response {
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

    private func recipePage(_ request: Request, _ visit: Visit, id: String, notice: String? = nil) async throws -> Response {
        guard let details = try await book.read({ book in try book.recipe(id: id).map { try book.details(of: $0) } }) else {
            return notFound(visit)
        }
        let main = RecipePage(details: details, notesShown: book.store.isUnlocked, csrf: visit.csrf,
                              notice: notice ?? request.uri.queryParameters["saved"].map { _ in "Saved." }).main()
        return page(visit, title: details.name, main: main)
    }

    // MARK: - Add, edit, delete

    private func newForm(_ request: Request, _ visit: Visit) async throws -> Response {
        try await formPage(visit, RecipeForm(notesAvailable: book.store.isUnlocked), recipeID: nil)
    }

    private func editForm(_ request: Request, _ visit: Visit, id: String) async throws -> Response {
        guard let details = try await book.read({ book in try book.recipe(id: id).map { try book.details(of: $0) } }) else {
            return notFound(visit)
        }
        return try await formPage(visit, RecipeForm(details: details, notesAvailable: book.store.isUnlocked), recipeID: id)
    }

    private func formPage(_ visit: Visit, _ form: RecipeForm, recipeID: String?, status: HTTPResponse.Status = .ok,
                          conflict: RecipeDetails? = nil) async throws -> Response {
        let web = self.book
        let types = try await book.readAt { book, token in try web.remembered("types", at: token) { try book.types() }.map(\.name) }
        let view = RecipeFormPage(form: form, recipeID: recipeID, types: types, csrf: visit.csrf, conflict: conflict)
        return page(visit, status: status, title: view.title, main: view.main())
    }

    /// Writes through the book, then lets the change feed take in the write before the route
    /// answers (``ChangeFeed/check()``): the page it answers with starts its event stream past
    /// its own save, instead of being told at the next poll to fetch itself again.
    private func write<T: Sendable>(_ body: @escaping @Sendable (RecipeBook) throws -> T) async throws -> T {
        let result = try await book.write(body)
        await feed.check()
        return result
    }

    private func add(_ request: Request, _ visit: Visit) async throws -> Response {
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

    private func save(_ request: Request, _ visit: Visit, id: String) async throws -> Response {
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

    private func confirmDelete(_ request: Request, _ visit: Visit, id: String, form: PostedForm?) async throws -> Response {
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

    private func delete(_ request: Request, _ visit: Visit, id: String) async throws -> Response {
        guard visit.form?.text("confirmed") == "yes" else { return try await confirmDelete(request, visit, id: id, form: visit.form) }
        let deleted = try await write { book -> Bool in
            guard let recipe = try book.recipe(id: id) else { return false }
            try book.delete(recipe)
            return true
        }
        return deleted ? WebResponse.redirect(to: "/") : notFound(visit)
    }

    // MARK: - Pictures, assets, events

    private func picture(_ request: Request, _ visit: Visit, id: String, kind: StoredPhoto.Kind) async throws -> Response {
        let store = book.store
        let thumbnails = self.thumbnails
        let wanted = request.headers[.ifNoneMatch]
        let found: (tag: String, photo: StoredPhoto?)? = try await book.read { _ in
            switch kind {
            case .photo:
                guard let tag = try store.photoTag(ofRecipe: id, .photo) else { return nil }
                if WebResponse.matches(wanted, tag: tag) { return (tag, nil) }
                return try store.photo(ofRecipe: id, .photo).map { ($0.entityTag, $0) }
            case .thumbnail:
                if let tag = try store.photoTag(ofRecipe: id, .thumbnail) {
                    if WebResponse.matches(wanted, tag: tag) { return (tag, nil) }
                    return try store.photo(ofRecipe: id, .thumbnail).map { ($0.entityTag, $0) }
                }
                // No thumbnail stored (a recipe written before thumbnails were made, or by
                // another program): one made from the photo, kept in memory.
                guard let photoTag = try store.photoTag(ofRecipe: id, .photo) else { return nil }
                let tag = "thumb-" + photoTag
                if WebResponse.matches(wanted, tag: tag) { return (tag, nil) }
                guard let made = try thumbnails.thumbnail(forPhotoTag: photoTag, make: { try store.photo(ofRecipe: id, .photo)?.data })
                else { return nil }
                return (tag, StoredPhoto(data: made, mimeType: "image/jpeg", entityTag: tag))
            }
        }
        guard let found else {
            return WebResponse.text(status: .notFound, "This recipe has no \(kind == .photo ? "photo" : "thumbnail").\n")
        }
        return WebResponse.picture(found.photo, tag: found.tag)
    }

    private func asset(_ request: Request, name: String) -> Response {
        guard let asset = assets.asset(named: name) else { return WebResponse.text(status: .notFound, "No such file.\n") }
        return WebResponse.asset(asset, ifNoneMatch: request.headers[.ifNoneMatch])
    }

    /// Open event streams at most: each holds a connection and a task.
    static let maximumEventStreams = 1000

    private func events() -> Response {
        guard feed.subscriberCount < Self.maximumEventStreams else {
            return WebResponse.text(status: .serviceUnavailable, "Too many pages are open; live updates resume when some close.\n")
        }
        return WebResponse.eventStream(feed.subscribe())
    }

    // MARK: - Logging in

    private func loginPage(_ request: Request, _ visit: Visit, message: String?) async throws -> Response {
        if !configuration.requiresLogin || visit.loggedIn { return WebResponse.redirect(to: "/") }
        let next = LoginPage.safeNext(request.uri.queryParameters["next"].map(String.init))
        let layout = PageLayout(assets: assets, loggedIn: false, csrf: nil)
        return WebResponse.html(status: message == nil ? .ok : .unauthorized,
                                layout.document(title: "Log in", main: LoginPage.main(csrf: visit.csrf, next: next, message: message), live: false))
    }

    private func login(_ request: Request, _ visit: Visit) async throws -> Response {
        guard configuration.requiresLogin, let expected = configuration.password else { return WebResponse.redirect(to: "/") }
        let given = visit.form?.text("password") ?? ""
        let next = LoginPage.safeNext(visit.form?.text("next"))
        guard WebSessions.passwordMatches(given, expected) else {
            try? await Task.sleep(for: sessions.recordFailure())
            let layout = PageLayout(assets: assets, loggedIn: false, csrf: nil)
            return WebResponse.html(status: .unauthorized, layout.document(
                title: "Log in", main: LoginPage.main(csrf: visit.csrf, next: next, message: "That password is not right."), live: false))
        }
        sessions.recordSuccess()
        // A new session ID on logging in, so an ID planted before cannot ride on it.
        sessions.end(visit.session)
        let session = sessions.start(loggedIn: true)
        var response = WebResponse.redirect(to: next)
        response.setCookie(WebResponse.sessionCookie(session, secure: configuration.servesTLS))
        return response
    }

    private func logout(_ request: Request, _ visit: Visit) async throws -> Response {
        sessions.end(visit.session)
        var response = WebResponse.redirect(to: configuration.requiresLogin ? "/login" : "/")
        response.setCookie(WebResponse.sessionCookie(sessions.start(), secure: configuration.servesTLS))
        return response
    }
}
