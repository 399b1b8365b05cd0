import BrowserSupport
import Foundation
import Testing
import TestSupport

/// `recipes web` in a real headless Chromium, driven over WebDriver: what a person does in
/// the book, with the page's own script running. Skipped where Chromium and chromedriver
/// are not installed (`apt-get install chromium chromium-driver`).
@Suite("recipes web in a real browser",
       .enabled(if: BrowserAvailability.unavailableReason() == nil, "\(BrowserAvailability.unavailableReason() ?? "")"))
struct WebBrowserTests {
    /// A sandboxed store, `recipes web` over it, and a browser; everything stopped after `body`.
    static func withBook(samples: Bool = true, arguments: [String] = [], phone: Bool = false,
                         _ body: (Browser, WebServerProcess, Sandbox, [String]) async throws -> Void) async throws {
        let sandbox = try Sandbox()
        let store = ["--store", sandbox.path("book.sqlite")] + (samples ? [] : ["--no-samples"])
        let server = try await WebServerProcess(in: sandbox, arguments: store + arguments)
        try await Browser.withSession { browser in
            if phone { try await browser.emulatePhone() }
            try await body(browser, server, sandbox, store)
        }
    }

    /// The names on the book's cards, in order.
    static func cardNames(_ browser: Browser) async throws -> [String] {
        try await browser.execute("return Array.from(document.querySelectorAll('.card .name')).map(e => e.textContent)")
            .arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// Waits until every image of the page has loaded and returns their natural widths.
    static func loadedImageWidths(_ browser: Browser, _ css: String) async throws -> [Int] {
        try await browser.waitUntil(timeout: .seconds(30), "images \(css) loaded") {
            try await browser.execute("return Array.from(document.querySelectorAll(arguments[0])).every(i => i.complete)", [css]).boolValue == true
        }
        return try await browser.execute("return Array.from(document.querySelectorAll(arguments[0])).map(i => i.naturalWidth)", [css])
            .arrayValue?.compactMap(\.intValue) ?? []
    }

    /// Whether the page is wider than the window (it scrolls sideways).
    static func scrollsSideways(_ browser: Browser) async throws -> Bool {
        try await browser.execute("return document.documentElement.scrollWidth > window.innerWidth").boolValue ?? true
    }

    @Test("browse: thumbnails load, the type filter and the search narrow the grid, a recipe shows its photo")
    func browse() async throws {
        try await Self.withBook { browser, server, _, _ in
            try await browser.go(to: server.baseURL + "/")
            let all = try await Self.cardNames(browser)
            #expect(all.count >= 10 && all.contains("Apple Crumble"), "\(all)")
            let widths = try await Self.loadedImageWidths(browser, ".card img")
            #expect(!widths.isEmpty && widths.allSatisfy { $0 > 0 && $0 <= 320 }, "thumbnails, never full photos: \(widths)")
            // The filter is applied as soon as a type is chosen (the page's script submits it).
            _ = try await browser.execute("const s = document.getElementById('type'); s.value = 'Soup'; s.dispatchEvent(new Event('change'))")
            try await browser.waitUntil("the Soup filter") { try await browser.currentURL().contains("type=Soup") }
            let soups = try await Self.cardNames(browser)
            #expect(!soups.isEmpty && soups.count < all.count, "\(soups)")
            let types = try await browser.execute("return Array.from(document.querySelectorAll('.card .type')).map(e => e.textContent)")
            #expect(types.arrayValue?.allSatisfy { $0.stringValue == "Soup" } == true, "\(types)")
            // The search box, as `list --search`.
            let search = try await browser.find("#q")
            try await search.sendKeys("crumble\n")
            try await browser.waitUntil("the search results") { try await browser.currentURL().contains("q=crumble") }
            #expect(try await Self.cardNames(browser) == ["Apple Crumble"])
            try await browser.find(".card a").click()
            try await browser.waitUntil("the recipe page") { (try? await browser.find("h1").text()) == "Apple Crumble" }
            #expect(try await Self.loadedImageWidths(browser, "img.photo").first ?? 0 > 0, "the photo loads")
            let lines = try await browser.findAll(".ingredients li")
            #expect(lines.count >= 2)
        }
    }

    @Test("add a recipe with a photo, edit it (move and remove ingredients), then delete it after confirming")
    func addEditDelete() async throws {
        try await Self.withBook(samples: false) { browser, server, sandbox, store in
            let photo = try sandbox.write("carbonara.jpg", try WebFixtures.jpeg)
            try await browser.go(to: server.baseURL + "/recipes/new")
            try await browser.find("#name").sendKeys("Garden Soup")
            try await browser.find("#type").sendKeys("Soup")
            try await browser.find("#prepTime").sendKeys("30 minutes")
            for (index, line) in [("1", "leek"), ("2", "carrots"), ("a pinch of", "salt")].enumerated() {
                try await browser.find("#amount-\(index + 1)").sendKeys(line.0)
                try await browser.find("#ingredient-\(index + 1)").sendKeys(line.1)
            }
            try await browser.find("#instructions").sendKeys("Chop.\nSimmer.")
            try await browser.find("#photo").sendKeys(photo)
            try await browser.waitUntil("the photo preview") { (try? await browser.find(".photo-preview")) != nil }
            try await browser.find("button.primary").click()
            try await browser.waitUntil("the new recipe") { (try? await browser.find("h1").text()) == "Garden Soup" }
            #expect(try await Self.loadedImageWidths(browser, "img.photo").first ?? 0 > 0, "the uploaded photo shows")
            #expect(try await browser.findAll(".ingredients .ingredient").asyncMap { try await $0.text() } == ["leek", "carrots", "salt"])

            try await browser.find("a.button[href$='/edit']").click()
            try await browser.waitUntil("the edit form") { (try? await browser.find("form.recipe-form")) != nil }
            // Move "leek" below "carrots", then remove "salt".
            try await browser.find("li.row:nth-child(1) [data-move=down]").click()
            try await browser.find("li.row:nth-child(3) [data-remove]").click()
            try await browser.find("button.primary").click()
            try await browser.waitUntil("the saved recipe") { (try? await browser.find(".notice").text()) == "Saved." }
            #expect(try await browser.findAll(".ingredients .ingredient").asyncMap { try await $0.text() } == ["carrots", "leek"])
            let shown = try #require(try await sandbox.run(["show", "Garden Soup", "--json"] + store).json() as? [String: Any])
            #expect((shown["ingredients"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["carrots", "leek"])

            try await browser.find("form[data-confirm] button").click()
            try await browser.waitUntil("the confirmation") { try await browser.alertText() != nil }
            #expect(try await browser.alertText()?.contains("Delete Garden Soup?") == true)
            try await browser.acceptAlert()
            try await browser.waitUntil("the book") { (try? await browser.find("p.empty")) != nil }
            #expect(try await WebServerTests.names(sandbox, store).isEmpty)
        }
    }

    @Test("a recipe added by another process appears on the open page without a reload")
    func liveUpdate() async throws {
        try await Self.withBook { browser, server, sandbox, store in
            try await browser.go(to: server.baseURL + "/")
            _ = try await browser.execute("window.loadedOnce = true")
            // The page's event stream is open before the change.
            try await browser.waitUntil("the event stream") {
                try await browser.execute("return document.body.dataset.live !== undefined").boolValue == true
            }
            #expect(try await sandbox.run(["add", "--name", "Aardvark Stew", "--type", "Main"] + store).status == 0)
            let added = ContinuousClock.now
            try await browser.waitUntil(timeout: .seconds(30), "the new card") { try await Self.cardNames(browser).contains("Aardvark Stew") }
            let seen = ContinuousClock.now - added
            #expect(try await browser.execute("return window.loadedOnce === true").boolValue == true, "no reload: \(seen)")
        }
    }

    @Test("a name with markup shows as text and runs nothing")
    func markupInNames() async throws {
        try await Self.withBook(samples: false) { browser, server, sandbox, store in
            let name = "<img src=x onerror=alert(1)><script>alert(2)</script>"
            #expect(try await sandbox.run(["add", "--name", name, "--overview", "<b>bold?</b>"] + store).status == 0)
            try await browser.go(to: server.baseURL + "/")
            #expect(try await Self.cardNames(browser) == [name])
            try await browser.find(".card a").click()
            try await browser.waitUntil("the recipe page") { (try? await browser.find("h1").text()) == name }
            #expect(try await browser.alertText() == nil, "no script ran")
            #expect(try await browser.findAll("h1 img, h1 script, .overview b").isEmpty)
        }
    }

    @Test("a form whose CSRF token was removed is refused and adds nothing")
    func missingCSRF() async throws {
        try await Self.withBook(samples: false) { browser, server, sandbox, store in
            try await browser.go(to: server.baseURL + "/recipes/new")
            try await browser.find("#name").sendKeys("Forged")
            _ = try await browser.execute("document.querySelector('input[name=csrf]').remove()")
            try await browser.find("button.primary").click()
            try await browser.waitUntil("the refusal") { try await browser.pageSource().contains("did not come from this page") }
            #expect(try await WebServerTests.names(sandbox, store).isEmpty)
        }
    }

    @Test("bound beyond loopback: the login page, a wrong password refused without a hint, then the book")
    func login() async throws {
        let sandbox = try Sandbox()
        let passwordFile = try sandbox.write("password", Data("kitchen-door\n".utf8))
        let server = try await WebServerProcess(in: sandbox, arguments: [
            "--store", sandbox.path("book.sqlite"), "--bind", "0.0.0.0", "--password-file", passwordFile,
        ])
        try await Browser.withSession { browser in
            try await browser.go(to: server.baseURL.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1") + "/recipes/new")
            try await browser.waitUntil("the login page") { (try? await browser.find("h1").text()) == "Log in" }
            try await browser.find("#password").sendKeys("kitchen-window\n")
            try await browser.waitUntil("the refusal") { (try? await browser.find("p.error").text()) == "That password is not right." }
            try await browser.find("#password").sendKeys("kitchen-door\n")
            try await browser.waitUntil("the add form, where the login was asked for") {
                (try? await browser.find("h1").text()) == "Add a recipe"
            }
            let session = try #require(try await browser.cookies().first { $0.name == "recipes_session" })
            #expect(session.httpOnly && session.sameSite == "Strict")
        }
    }

    @Test("phone and desktop: no page scrolls sideways; screenshots of the book, a recipe and the add form")
    func layoutAndScreenshots() async throws {
        let folder = ProcessInfo.processInfo.environment["RECIPES_SCREENSHOTS_DIR"].map { URL(fileURLWithPath: $0) }
        for phone in [true, false] {
            try await Self.withBook(phone: phone) { browser, server, _, _ in
                if !phone { try await browser.setWindowSize(width: 1280, height: 900) }
                try await browser.go(to: server.baseURL + "/")
                let link = try #require(try await browser.find(".card a").attribute("href"))
                for (name, path) in [("book", "/"), ("recipe", link), ("add-form", "/recipes/new")] {
                    try await browser.go(to: server.baseURL + path)
                    _ = try await Self.loadedImageWidths(browser, "img")
                    #expect(try await !Self.scrollsSideways(browser), "\(name) scrolls sideways on \(phone ? "a phone" : "a desktop")")
                    // Every field has a label, every image a text alternative.
                    let unlabelled = try await browser.execute("""
                        return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea'))
                            .filter(e => e.labels.length === 0 && !e.getAttribute('aria-label')).map(e => e.id || e.name)
                        """)
                    #expect(unlabelled.arrayValue?.isEmpty == true, "\(name): fields without a label: \(unlabelled)")
                    let withoutAlt = try await browser.execute("return Array.from(document.images).filter(i => !i.hasAttribute('alt')).length")
                    #expect(withoutAlt.intValue == 0, "\(name): images without alt")
                    let picture = try await browser.screenshot()
                    #expect(picture.starts(with: [0x89, 0x50, 0x4E, 0x47]))
                    if let folder {
                        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                        try picture.write(to: folder.appendingPathComponent("\(name)-\(phone ? "phone" : "desktop").png"))
                    }
                }
            }
        }
    }
}

extension Array {
    /// The elements mapped by an async closure, in order.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}
