import Foundation
import GRDB
import InteropSupport
import RecipeImages
import TestSupport
import Testing

/// `recipes web` as a real process answering real HTTP on 127.0.0.1, checked without a
/// browser: what each page says, what each form refuses, and that a refusal writes nothing.
@Suite("recipes web over HTTP")
struct WebServerTests {
    /// The names in the store, read by `recipes list --json` (a separate process).
    static func names(_ sandbox: Sandbox, _ store: [String]) async throws -> [String] {
        let list = try await sandbox.run(["list", "--json"] + store)
        return try #require(try list.json() as? [[String: Any]]).compactMap { $0["name"] as? String }
    }

    /// The add form's hidden fields: its CSRF token and one-time submission ID.
    static func addForm(_ client: WebClient) async throws -> (csrf: String, submission: String) {
        let html = try await client.page("/recipes/new")
        return (try #require(WebClient.hidden("csrf", in: html)), try #require(WebClient.hidden("submission", in: html)))
    }

    @Test("pages carry the security headers and an HttpOnly SameSite=Strict session; a name with <script> shows as text")
    func pagesAndEscaping() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite")]
        let server = try await WebServerProcess(in: sandbox, arguments: store)
        let first = try await HTTPTestClient(base: URL(string: server.baseURL)!).send("GET", "/")
        #expect(first.status == 200)
        let cookie = try #require(first.header("Set-Cookie"))
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "\(cookie)")
        let policy = try #require(first.header("Content-Security-Policy"))
        #expect(policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"), "\(policy)")
        #expect(first.text.contains("Apple Crumble"), "the samples were seeded, as for every command")
        #expect(first.header("Server-Timing")?.hasPrefix("app;dur=") == true, "the server says how long it took")
        #expect(!first.text.contains("/photo\""), "the grid links thumbnails only, never full photos")

        let client = try await WebClient(server)
        let form = try await Self.addForm(client)
        let name = "<script>alert(1)</script>"
        let added = try await client.post("/recipes", [
            ("csrf", .text(form.csrf)), ("submission", .text(form.submission)), ("name", .text(name)), ("type", .text("Soup")),
            ("amount", .text("2")), ("ingredient", .text("eggs")), ("amount", .text("")), ("ingredient", .text("salt")),
        ])
        #expect(added.status == 200, "the redirect leads to the new recipe: \(added.status)")
        #expect(added.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!added.text.contains(name), "the name never reaches the page unescaped")
        let book = try await client.page("/?q=alert")
        #expect(book.contains("&lt;script&gt;") && !book.contains(name))
        #expect(try await Self.names(sandbox, store).contains(name))
        // Lines in the order sent, the empty amount kept empty.
        let shown = try await sandbox.run(["show", name, "--json"] + store)
        let lines = try #require((try shown.json() as? [String: Any])?["ingredients"] as? [[String: Any]])
        #expect(lines.compactMap { $0["name"] as? String } == ["eggs", "salt"])
    }

    @Test("a post without the session's CSRF token, or from another session, is refused and writes nothing")
    func csrfRefused() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        let server = try await WebServerProcess(in: sandbox, arguments: store)
        let client = try await WebClient(server)
        let other = try await WebClient(server)
        let otherForm = try await Self.addForm(other)
        let missing = try await client.post("/recipes", [("name", .text("Stew"))])
        #expect(missing.status == 403 && missing.text.contains("did not come from this page"), "\(missing.status)")
        let foreign = try await client.post("/recipes", [("csrf", .text(otherForm.csrf)), ("name", .text("Stew"))])
        #expect(foreign.status == 403)
        #expect(try await Self.names(sandbox, store).isEmpty)
    }

    @Test("photos: ETag from the attachment digest, 304 on revalidation; the thumbnail is a small JPEG made on upload")
    func photosRevalidate() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        let server = try await WebServerProcess(in: sandbox, arguments: store)
        let client = try await WebClient(server)
        let form = try await Self.addForm(client)
        let photo = try WebFixtures.jpeg
        let added = try await client.post("/recipes", [
            ("csrf", .text(form.csrf)), ("submission", .text(form.submission)), ("name", .text("Carbonara")),
            ("photo", .file(name: "carbonara.jpg", photo)),
        ])
        #expect(added.status == 200)
        let path = try #require(added.text.range(of: #"/recipes/CDTIS-Recipe-[A-F0-9-]+/photo"#, options: .regularExpression).map { String(added.text[$0]) })
        let full = try await client.get(path)
        #expect(full.status == 200 && full.body == photo)
        #expect(full.header("Content-Type") == "image/jpeg")
        let tag = try #require(full.header("ETag"))
        #expect(tag.hasPrefix("\"md5-"), "the attachment's digest: \(tag)")
        let again = try await client.get(path, headers: ["If-None-Match": tag])
        #expect(again.status == 304 && again.body.isEmpty)
        let thumbnail = try await client.get(path.replacingOccurrences(of: "/photo", with: "/thumbnail"))
        #expect(thumbnail.status == 200 && thumbnail.body.starts(with: [0xFF, 0xD8]))
        let size = try Photo.check(thumbnail.body)
        #expect(max(size.width, size.height) <= 320, "\(size)")
        let thumbTag = try #require(thumbnail.header("ETag"))
        #expect(thumbTag != tag)
        let shown = try await sandbox.run(["show", "Carbonara", "--json"] + store)
        #expect((try shown.json() as? [String: Any])?["thumbnail"] is [String: Any], "the thumbnail is stored beside the photo")
    }

    @Test("bad input gets a message next to its field and writes nothing")
    func badInputChangesNothing() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        let server = try await WebServerProcess(in: sandbox, arguments: store)
        let client = try await WebClient(server)
        let jpeg = try WebFixtures.jpeg
        var gif = Data("GIF89a".utf8)
        gif.append(Data(repeating: 7, count: 200))
        var tooLarge = jpeg
        tooLarge.append(Data(count: 10_100_000))
        let cases: [(String, [(String, WebClient.FormValue)], String)] = [
            ("truncated JPEG", [("name", .text("Cut")), ("photo", .file(name: "cut.jpg", jpeg.prefix(jpeg.count / 2)))], "damaged or incomplete"),
            ("GIF renamed .jpg", [("name", .text("Gif")), ("photo", .file(name: "renamed.jpg", gif))], "GIF"),
            ("over 10 MB", [("name", .text("Big")), ("photo", .file(name: "big.jpg", tooLarge))], "at most 10000000"),
            ("a name of 10,000 characters", [("name", .text(String(repeating: "n", count: 10_000)))], "at most 300"),
            ("an ingredient without a name", [("name", .text("Soup")), ("amount", .text("2 cups")), ("ingredient", .text(""))], "but no name"),
            ("no name", [("name", .text("  "))], "needs a name"),
        ]
        for (label, fields, message) in cases {
            let form = try await Self.addForm(client)
            let reply = try await client.post("/recipes", [("csrf", .text(form.csrf)), ("submission", .text(form.submission))] + fields)
            #expect(reply.status == 422, "\(label): \(reply.status)")
            #expect(reply.text.contains(message), "\(label): the page says why")
            #expect(reply.text.contains("class=\"recipe-form\""), "\(label): the form is shown again")
        }
        #expect(try await Self.names(sandbox, store).isEmpty)
    }

    @Test("a form posted twice makes one recipe")
    func postedTwice() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        let server = try await WebServerProcess(in: sandbox, arguments: store)
        let client = try await WebClient(server)
        let form = try await Self.addForm(client)
        let fields: [(String, WebClient.FormValue)] = [("csrf", .text(form.csrf)), ("submission", .text(form.submission)), ("name", .text("Pho"))]
        async let first = client.post("/recipes", fields)
        async let second = client.post("/recipes", fields)
        let replies = try await [first, second]
        #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map(\.status))")
        #expect(replies.allSatisfy { $0.text.contains("<h1>Pho</h1>") }, "both lead to the recipe")
        #expect(try await Self.names(sandbox, store) == ["Pho"])
    }

    @Test("an edit over a change made meanwhile is shown as a conflict, not saved; saving again replaces it")
    func editConflict() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Stew", "--overview", "Hearty", "--ingredient", "1|onion", "--ingredient", "2|carrots"] + store).status == 0)
        let server = try await WebServerProcess(in: sandbox, arguments: store)
        let client = try await WebClient(server)
        let book = try await client.page("/")
        let link = try #require(book.range(of: #"/recipes/CDTIS-Recipe-[A-F0-9-]+"#, options: .regularExpression).map { String(book[$0]) })
        let edit = try await client.page(link + "/edit")
        let csrf = try #require(WebClient.hidden("csrf", in: edit))
        let version = try #require(WebClient.hidden("version", in: edit))
        // Meanwhile, another process changes the overview.
        #expect(try await sandbox.run(["edit", "Stew", "--overview", "Changed in a terminal"] + store).status == 0)
        let mine: [(String, WebClient.FormValue)] = [
            ("name", .text("Stew")), ("overview", .text("Mine")),
            ("amount", .text("2")), ("ingredient", .text("carrots")), ("amount", .text("1")), ("ingredient", .text("onion")),
        ]
        let conflict = try await client.post(link, [("csrf", .text(csrf)), ("version", .text(version))] + mine)
        #expect(conflict.status == 409, "\(conflict.status)")
        #expect(conflict.text.contains("changed elsewhere") && conflict.text.contains("Changed in a terminal"))
        #expect(conflict.text.contains("value=\"Mine\""), "the person's text stays in the form")
        var shown = try #require(try await sandbox.run(["show", "Stew", "--json"] + store).json() as? [String: Any])
        #expect(shown["overview"] as? String == "Changed in a terminal")
        let newVersion = try #require(WebClient.hidden("version", in: conflict.text))
        let saved = try await client.post(link, [("csrf", .text(csrf)), ("version", .text(newVersion))] + mine)
        #expect(saved.status == 200 && saved.text.contains("Saved."))
        shown = try #require(try await sandbox.run(["show", "Stew", "--json"] + store).json() as? [String: Any])
        #expect(shown["overview"] as? String == "Mine")
        let lines = try #require(shown["ingredients"] as? [[String: Any]])
        #expect(lines.compactMap { $0["name"] as? String } == ["carrots", "onion"], "reordered")
    }

    @Test("a write while a sync holds the store: a message on the page within seconds, nothing written")
    func lockedStore() async throws {
        let sandbox = try Sandbox()
        let path = sandbox.path("book.sqlite")
        let store = ["--store", path, "--no-samples"]
        let server = try await WebServerProcess(in: sandbox, arguments: store)
        let client = try await WebClient(server)
        let form = try await Self.addForm(client)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: path, configuration: configuration)
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let start = ContinuousClock.now
        let reply = try await client.post("/recipes", [("csrf", .text(form.csrf)), ("submission", .text(form.submission)), ("name", .text("Stew"))])
        // The form gives up after the short wait, not the 30 s a sync waits: the bound only
        // tells the two apart, however busy the machine.
        #expect(ContinuousClock.now - start < .seconds(25))
        #expect(reply.text.contains("busy") && reply.text.contains("Nothing was changed"), "\(reply.status): \(reply.text.prefix(300))")
        #expect(try await client.get("/").status == 200, "reading goes on")
        try await holder.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try holder.close()
        #expect(try await Self.names(sandbox, store).isEmpty)
    }

    @Test("bound beyond loopback: refused without a password; with one, a login page, no hint on failure, a growing delay")
    func loginBeyondLoopback() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        let refused = try await sandbox.run(["web", "--bind", "0.0.0.0", "--port", "0"] + store)
        #expect(refused.status == 1 && refused.stderr.contains("--password-file"), "\(refused)")
        let passwordFile = try sandbox.write("password", Data("kitchen-door\n".utf8))
        let server = try await WebServerProcess(in: sandbox, arguments: store + ["--bind", "0.0.0.0", "--password-file", passwordFile])
        let client = try await WebClient(server)
        let login = try await client.page("/")
        #expect(login.contains("<h1>Log in</h1>"), "the book is behind the login")
        let csrf = try #require(WebClient.hidden("csrf", in: login))
        let wrong = try await client.post("/login", [("csrf", .text(csrf)), ("password", .text("kitchen-window")), ("next", .text("/"))])
        #expect(wrong.status == 401 && wrong.text.contains("That password is not right."))
        let start = ContinuousClock.now
        _ = try await client.post("/login", [("csrf", .text(csrf)), ("password", .text("guess")), ("next", .text("/"))])
        #expect(ContinuousClock.now - start >= .milliseconds(400), "a second failure is answered after a delay")
        #expect(try await client.post("/recipes", [("csrf", .text(csrf)), ("name", .text("x"))]).status == 403, "posts before logging in are refused")
    }

    @Test("with --remote --live, a recipe synced from another machine shows on the page")
    func liveSyncInProcess() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { remote in
            let other = ["--store", sandbox.path("other.sqlite"), "--no-samples"]
            let mine = ["--store", sandbox.path("mine.sqlite"), "--no-samples"]
            let refused = try await sandbox.run(["web", "--port", "0", "--live"] + mine)
            #expect(refused.status == 1 && refused.stderr.contains("--live needs a remote"), "\(refused)")
            let server = try await WebServerProcess(in: sandbox, arguments: mine + ["--remote", remote.url(), "--live"])
            let client = try await WebClient(server)
            #expect(try await sandbox.run(["add", "--name", "Faraway Pie"] + other).status == 0)
            #expect(try await sandbox.run(["sync", "--remote", remote.url()] + other).status == 0)
            // The page fetched until it shows the recipe, as an open page does on each change event.
            let arrived = await TestSupport.waitUntil(timeout: 30, interval: .milliseconds(100)) {
                ((try? await client.page("/?q=faraway")) ?? "").contains("Faraway Pie")
            }
            #expect(arrived, "the live sync pulled the recipe: \(server.process.stderr)")
            #expect(server.process.stderr.contains("live: connected"), "\(server.process.stderr)")
        }
    }

    @Test("private notes show only when the store's password was given")
    func notesNeedThePassword() async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        let passwordFile = try sandbox.write("notes.pw", Data("pantry\n".utf8))
        #expect(try await sandbox.run(["add", "--name", "Secret Sauce", "--notes", "Grandma's trick: anchovies", "--password-file", passwordFile] + store).status == 0)
        for unlocked in [false, true] {
            let server = try await WebServerProcess(in: sandbox, arguments: store + (unlocked ? ["--password-file", passwordFile] : []))
            let client = try await WebClient(server)
            let book = try await client.page("/")
            let link = try #require(book.range(of: #"/recipes/CDTIS-Recipe-[A-F0-9-]+"#, options: .regularExpression).map { String(book[$0]) })
            let page = try await client.page(link)
            let edit = try await client.page(link + "/edit")
            #expect(page.contains("anchovies") == unlocked, "notes on the page, unlocked: \(unlocked)")
            #expect(edit.contains("id=\"notes\"") == unlocked, "the notes field, unlocked: \(unlocked)")
            #expect(!edit.contains("anchovies") || unlocked)
            await server.process.stop()
        }
    }

    @Test("a server whose store file is deleted stops, says so and exits 1")
    func storeDeleted() async throws {
        let sandbox = try Sandbox()
        let path = sandbox.path("book.sqlite")
        let server = try await WebServerProcess(in: sandbox, arguments: ["--store", path, "--no-samples"])
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        #expect(await server.process.waitForExit(timeout: 120), "the server did not notice its store was deleted")
        let result = try await server.process.finish(timeout: 60)
        #expect(result.status == 1 && result.stderr.contains("recipes: the store \(path) was deleted while it was open"), "\(result)")
    }
}
