import BrowserSupport
import Foundation
import Testing

/// Drives a real headless Chromium. Each test starts its own, and the test process runs a few
/// at a time (`Browser.launch()` waits for a slot), so the limit is a hang guard that counts
/// the wait for a slot too.
@Suite(
    .enabled(if: BrowserAvailability.unavailableReason() == nil, Comment(rawValue: BrowserAvailability.unavailableReason() ?? "")),
    .timeLimit(.minutes(3)))
struct BrowserTests {
    @Test func navigatesAndReadsThePage() async throws {
        let page = try TestPage("""
            <!doctype html><html><head><title>Shelf</title></head>
            <body><h1 id="heading">Recipes</h1><ul><li>Soup</li><li>Bread</li></ul></body></html>
            """)
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            #expect(try await browser.title() == "Shelf")
            #expect(try await browser.currentURL() == page.url)
            #expect(try await browser.find("#heading").text() == "Recipes")
            let items = try await browser.findAll("li")
            #expect(items.count == 2)
            #expect(try await items[1].text() == "Bread")
            #expect(try await browser.find("ul").find("li").text() == "Soup")
            #expect(try await browser.findAll(".nothing").isEmpty)
            #expect(try await browser.pageSource().contains("<h1 id=\"heading\">Recipes</h1>"))
            #expect(try await browser.find("h1").attribute("id") == "heading")
            #expect(try await browser.find("h1").attribute("data-missing") == nil)
            #expect(try await browser.find("h1").isDisplayed())
        }
    }

    @Test func clickingAButtonChangesTextLater() async throws {
        let page = try TestPage("""
            <!doctype html><title>Click</title>
            <button id="go" onclick="setTimeout(() => { document.getElementById('out').textContent = 'Saved' }, 200)">Save</button>
            <p id="out">Unsaved</p>
            """)
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            try await browser.find("#go").click()
            try await browser.waitUntil("the status to read Saved") {
                try await browser.find("#out").text() == "Saved"
            }
        }
    }

    @Test func typesIntoAnInputAndClearsIt() async throws {
        let page = try TestPage("""
            <!doctype html><title>Type</title>
            <input id="name" value=""><p id="echo"></p>
            <script>document.getElementById('name').addEventListener('input', e => {
              document.getElementById('echo').textContent = e.target.value })</script>
            """)
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            let input = try await browser.find("#name")
            try await input.sendKeys("Pancakes")
            try await input.sendKeys(" & syrup")
            #expect(try await input.property("value") == "Pancakes & syrup")
            #expect(try await browser.find("#echo").text() == "Pancakes & syrup")
            try await input.clear()
            #expect(try await input.property("value") == "")
        }
    }

    @Test func uploadsAFileThroughSendKeys() async throws {
        let page = try TestPage("""
            <!doctype html><title>Upload</title>
            <input type="file" id="photo" accept="image/*"><p id="chosen"></p>
            <script>document.getElementById('photo').addEventListener('change', e => {
              document.getElementById('chosen').textContent = e.target.files[0].name })</script>
            """)
        defer { page.remove() }
        let bytes = Data((0..<12_345).map { UInt8(truncatingIfNeeded: $0) })
        let path = try page.writeFile("photo.jpg", bytes)
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            try await browser.find("#photo").sendKeys(path)
            let size = try await browser.execute("return document.querySelector(arguments[0]).files[0].size", ["#photo"])
            #expect(size.intValue == 12_345)
            #expect(try await browser.find("#chosen").text() == "photo.jpg")
        }
    }

    @Test func acceptsAndDismissesAConfirmDialog() async throws {
        let page = try TestPage("""
            <!doctype html><title>Confirm</title>
            <button id="delete" onclick="document.getElementById('out').textContent = confirm('Delete this recipe?') ? 'deleted' : 'kept'">Delete</button>
            <p id="out"></p>
            """)
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            #expect(try await browser.alertText() == nil)

            try await browser.find("#delete").click()
            try await browser.waitUntil("the confirm dialog") { try await browser.alertText() != nil }
            #expect(try await browser.alertText() == "Delete this recipe?")
            try await browser.acceptAlert()
            try await browser.waitUntil("the recipe to be deleted") { try await browser.find("#out").text() == "deleted" }

            try await browser.find("#delete").click()
            try await browser.waitUntil("the confirm dialog again") { try await browser.alertText() != nil }
            try await browser.dismissAlert()
            try await browser.waitUntil("the recipe to be kept") { try await browser.find("#out").text() == "kept" }
        }
    }

    @Test func takesAPNGScreenshot() async throws {
        let page = try TestPage("<!doctype html><title>Shot</title><body style='background:#c33'>Red</body>")
        defer { page.remove() }
        try await Browser.withSession(windowWidth: 800, windowHeight: 600) { browser in
            try await browser.go(to: page.url)
            let png = try await browser.screenshot()
            #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
            #expect(png.count > 100)
        }
    }

    @Test func emulatesAPhoneViewport() async throws {
        let page = try TestPage("""
            <!doctype html><html><head><title>Phone</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>#layout::after { content: 'desktop' } @media (max-width: 500px) { #layout::after { content: 'phone' } }</style>
            </head><body><div id="layout"></div></body></html>
            """)
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            #expect(try await browser.execute("return window.innerWidth") == 1280)
            #expect(try await browser.execute("return matchMedia('(max-width: 500px)').matches") == false)

            try await browser.emulatePhone()
            #expect(try await browser.execute("return window.innerWidth") == 390)
            #expect(try await browser.execute("return matchMedia('(max-width: 500px)').matches") == true)
            #expect(try await browser.execute("return window.devicePixelRatio") == 3)
            #expect(try await browser.execute(
                "return getComputedStyle(document.getElementById('layout'), '::after').content") == "\"phone\"")

            // The override outlives a navigation.
            try await browser.reload()
            #expect(try await browser.execute("return window.innerWidth") == 390)
            #expect(try await browser.execute("return matchMedia('(pointer: coarse)').matches") == true)
        }
    }

    @Test func resizesTheWindow() async throws {
        let page = try TestPage("<!doctype html><title>Resize</title><p>x</p>")
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            try await browser.setWindowSize(width: 700, height: 500)
            #expect(try await browser.execute("return window.outerWidth") == 700)
        }
    }

    @Test func passesArgumentsToScriptsAndReadsResults() async throws {
        let page = try TestPage("<!doctype html><title>Script</title><p id='p'>Hello</p>")
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            let paragraph = try await browser.find("#p")
            let result = try await browser.execute(
                "return [arguments[0] + 1, arguments[1], arguments[2].textContent, arguments[3], arguments[4].k, null]",
                [41, "two", paragraph, true, ["k": 1.5]])
            #expect(result == [42, "two", "Hello", true, 1.5, nil])
            let returned = try await browser.execute("return document.getElementById('p')")
            #expect(try await browser.element(from: returned)?.text() == "Hello")
            #expect(try await browser.execute("return Promise.resolve('later')") == "later")
        }
    }

    @Test func reportsAMissingSelectorAndATimedOutWaitByName() async throws {
        let page = try TestPage("<!doctype html><title>Empty</title><div id='box'></div>")
        defer { page.remove() }
        try await Browser.withSession { browser in
            try await browser.go(to: page.url)
            let error = try await #require(throws: WebDriverError.self) { try await browser.find("#no-such-thing") }
            #expect(error.code == "no such element")
            #expect(error.description.contains("#no-such-thing"))

            let nested = try await #require(throws: WebDriverError.self) {
                try await browser.find("#box").find(".inner")
            }
            #expect(nested.description.contains(".inner"))
            #expect(nested.description.contains("#box"))

            let timeout = try await #require(throws: WaitTimeoutError.self) {
                try await browser.waitUntil(timeout: .milliseconds(300), "the spinner to appear") {
                    try await browser.find(".spinner").isDisplayed()
                }
            }
            #expect(timeout.description.contains("the spinner to appear"))
            #expect(timeout.lastError?.contains(".spinner") == true)

            let script = try await #require(throws: WebDriverError.self) { try await browser.execute("throw new Error('boom')") }
            #expect(script.code == "javascript error")
            #expect(script.description.contains("execute("))
        }
    }

    @Test func readsHttpOnlyCookies() async throws {
        let server = try CookieServer()
        defer { server.stop() }
        try await Browser.withSession { browser in
            try await browser.go(to: server.url)
            #expect(try await browser.find("p").text() == "Signed in")
            let cookies = try await browser.cookies().sorted { $0.name < $1.name }
            #expect(cookies.map(\.name) == ["session", "theme"])
            #expect(cookies.first?.value == "s3cret")
            #expect(cookies.first?.httpOnly == true)
            #expect(cookies.first?.sameSite == "Strict")
            #expect(cookies.first?.path == "/")
            #expect(cookies.last?.httpOnly == false)
            #expect(cookies.last?.sameSite == "Lax")
            #expect(try await browser.execute("return document.cookie") == "theme=dark")
        }
    }

    @Test func quitLeavesNoProcessBehind() async throws {
        let page = try TestPage("<!doctype html><title>Bye</title>")
        defer { page.remove() }
        let browser = try await Browser.launch()
        let driver = browser.driverProcessID
        try await browser.go(to: page.url)
        let chromium = browser.browserProcessIDs()
        #expect(ProcessStatus.isAlive(driver))
        #expect(!chromium.isEmpty)
        let scratch = browser.scratchDirectory
        #expect(FileManager.default.fileExists(atPath: scratch))

        await browser.quit()
        await browser.quit()  // a second quit is harmless

        #expect(!ProcessStatus.isAlive(driver))
        for pid in chromium { #expect(!ProcessStatus.isAlive(pid), "chromium process \(pid) survived quit()") }
        #expect(browser.browserProcessIDs().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scratch))
        await #expect(throws: WebDriverError.self) { try await browser.title() }
    }
}
