/// The frame every page shares: the document head (one stylesheet, one script, both ours),
/// the header with the book's search box, and the page's `<main>`.
struct PageLayout {
    /// The stylesheet's and the script's addresses, each with its content's tag so a
    /// browser may keep them for good.
    let assets: WebAssets
    /// Whether the header offers logging out.
    let loggedIn: Bool
    /// The session's CSRF token, for the log-out form.
    let csrf: String?

    /// The whole document for a page titled `title` whose `<main>` holds `main`.
    /// `search` refills the header's search box.
    func document(title: String, main: String, search: String = "", live: Bool = true) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title)) · Recipes</title>
            <link rel="stylesheet" href="\(assets.styleURL)">
            <script src="\(assets.scriptURL)" defer></script>
            </head>
            <body\(live ? " data-live=\"/events\"" : "")>
            <header class="top">
            <a class="brand" href="/">Recipes</a>
            <form class="search" action="/" method="get" role="search">
            <label for="q" class="hidden">Search recipes</label>
            <input id="q" name="q" type="search" placeholder="Search recipes" value="\(HTML.escape(search))">
            <button type="submit">Search</button>
            </form>
            <a class="button add" href="/recipes/new">Add a recipe</a>
            """
        if loggedIn, let csrf {
            html += """
                <form class="logout" action="/logout" method="post">
                <input type="hidden" name="csrf" value="\(HTML.escape(csrf))">
                <button type="submit">Log out</button>
                </form>
                """
        }
        html += """
            </header>
            <p id="live-status" class="live-status" role="status" aria-live="polite"></p>
            <main id="main">
            \(main)
            </main>
            </body>
            </html>

            """
        return html
    }
}
