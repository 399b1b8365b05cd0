/// The login page of a server bound beyond loopback: one password (the store's), and a
/// message that never says more than that it was not right.
enum LoginPage {
    /// The page's `<main>`.
    static func main(csrf: String, next: String, message: String?) -> String {
        var html = "<h1>Log in</h1>\n"
        if let message { html += "<p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>\n" }
        html += """
            <form class="login" action="/login" method="post">
            <input type="hidden" name="csrf" value="\(HTML.escape(csrf))">
            <input type="hidden" name="next" value="\(HTML.escape(next))">
            <div class="field"><label for="password">Password</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required autofocus></div>
            <div class="actions"><button type="submit" class="primary">Log in</button></div>
            </form>

            """
        return html
    }

    /// `next` when it is a path of this site, else `/`, so the login cannot be used to send
    /// someone to another site.
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"), next.utf8.count < 2000 else { return "/" }
        return next
    }
}
