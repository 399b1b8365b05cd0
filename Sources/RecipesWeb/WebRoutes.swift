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
    func respond(_ request: Request, post: Bool = false, public isPublic: Bool = false,
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
    func finish(_ response: Response, _ visit: Visit, started: ContinuousClock.Instant) -> Response {
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
    func checkHost(_ request: Request) -> Response? {
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

    func notFound(_ visit: Visit) -> Response {
        page(visit, status: .notFound, title: "Not found",
             main: "<h1>No such recipe</h1><p>It may have been deleted. <a href=\"/\">Back to the book</a>.</p>")
    }
}
