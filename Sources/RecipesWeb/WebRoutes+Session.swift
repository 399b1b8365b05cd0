import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RecipesKit
import HTTPSupport

/// Logging in and out.
extension WebRoutes {
    func loginPage(_ request: Request, _ visit: Visit, message: String?) async throws -> Response {
        if !configuration.requiresLogin || visit.loggedIn { return WebResponse.redirect(to: "/") }
        let next = LoginPage.safeNext(request.uri.queryParameters["next"].map(String.init))
        let layout = PageLayout(assets: assets, loggedIn: false, csrf: nil)
        return WebResponse.html(status: message == nil ? .ok : .unauthorized,
                                layout.document(title: "Log in", main: LoginPage.main(csrf: visit.csrf, next: next, message: message), live: false))
    }

    func login(_ request: Request, _ visit: Visit) async throws -> Response {
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

    func logout(_ request: Request, _ visit: Visit) async throws -> Response {
        sessions.end(visit.session)
        var response = WebResponse.redirect(to: configuration.requiresLogin ? "/login" : "/")
        response.setCookie(WebResponse.sessionCookie(sessions.start(), secure: configuration.servesTLS))
        return response
    }
}
