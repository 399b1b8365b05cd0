internal import TestSupport
public import Foundation
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A headless Chromium driven over W3C WebDriver by a chromedriver this object started,
/// for end-to-end tests of the web app.
///
/// Each `Browser` owns one chromedriver process (on a free loopback port), one Chromium
/// with a fresh temporary profile, and one session. Always end it with `quit()`, on
/// failure paths too; `withSession` does that for you:
///
/// ```swift
/// try await Browser.withSession { browser in
///     try await browser.go(to: url)
///     try await browser.find("#save").click()
/// }
/// ```
///
/// Should a test forget, dropping the last reference kills the processes, and if the
/// whole test process dies a watchdog process kills them within about a second.
public final class Browser: Sendable {
    /// The process id of the chromedriver this browser started; Chromium runs beneath it.
    public let driverProcessID: Int32
    /// The private scratch directory (Chromium profile, chromedriver log), removed at quit.
    public let scratchDirectory: String

    let session: WebDriverSession
    private let driver: ChildProcess
    private let watchdog: ChildProcess
    private let profileDirectory: String
    private let quitStarted = Mutex(false)

    private init(
        session: WebDriverSession, driver: ChildProcess, watchdog: ChildProcess, scratch: String, profile: String
    ) {
        self.session = session
        self.driver = driver
        self.watchdog = watchdog
        self.driverProcessID = driver.processIdentifier
        self.scratchDirectory = scratch
        self.profileDirectory = profile
    }

    deinit {
        // The test forgot quit(): nothing can be awaited here, so kill rather than ask.
        let alreadyQuit = quitStarted.withLock { $0 }
        if !alreadyQuit {
            Self.killEverything(driver: driver, watchdog: watchdog, profile: profileDirectory, scratch: scratchDirectory)
            BrowserSlots.shared.give()
        }
    }

    // MARK: Starting and stopping

    /// Starts chromedriver on a free loopback port and opens a headless Chromium session
    /// (window 1280×900 by default) with a fresh temporary profile.
    ///
    /// Chromium runs with `--headless=new --no-sandbox` (tests run as root) and with its
    /// own background networking (updates, sync, metrics) off, so it only talks to what
    /// the page loads. A `window.alert`/`confirm` stays open until the test handles it
    /// with `acceptAlert()`/`dismissAlert()`.
    ///
    /// `extraArguments` go to Chromium after its usual ones (a certificate to trust, say).
    public static func launch(windowWidth: Int = 1280, windowHeight: Int = 900, extraArguments: [String] = []) async throws -> Browser {
        if let reason = BrowserAvailability.unavailableReason() {
            throw WebDriverError(code: "driver startup failure", message: reason, command: "launch()")
        }
        guard let chromium = BrowserAvailability.chromiumPath(),
              let chromedriver = BrowserAvailability.chromedriverPath() else {
            throw WebDriverError(code: "driver startup failure", message: "no chromium", command: "launch()")
        }
        // A slot of the process's few browsers (``BrowserSlots``), given back by quit().
        await BrowserSlots.shared.take()
        let scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("recipes-browser-\(UUID().uuidString)").path
        let profile = scratch + "/profile"
        let log = scratch + "/chromedriver.log"
        try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)

        var driver: ChildProcess?
        var watchdog: ChildProcess?
        do {
            let started = try await startDriver(chromedriver, log: log)
            driver = started.process
            watchdog = try await OrphanWatchdog.start(driver: started.process, profile: profile, scratch: scratch)
            let capabilities: ScriptValue = [
                "capabilities": [
                    "alwaysMatch": [
                        "unhandledPromptBehavior": "ignore",
                        "pageLoadStrategy": "normal",
                        "goog:chromeOptions": [
                            "binary": .string(chromium),
                            "args": .array((chromiumArguments(
                                width: windowWidth, height: windowHeight, profile: profile) + extraArguments).map { .string($0) }),
                        ],
                    ],
                ],
            ]
            let created = try await started.client.send(
                "POST", "/session", capabilities, command: "launch() new session")
            guard let id = created["sessionId"]?.stringValue else {
                throw WebDriverError(
                    code: "invalid response", message: "no session id in \(created)", command: "launch() new session")
            }
            return Browser(
                session: WebDriverSession(client: started.client, id: id), driver: started.process,
                watchdog: watchdog!, scratch: scratch, profile: profile)
        } catch {
            BrowserSlots.shared.give()
            let detail = (try? String(contentsOfFile: log, encoding: .utf8)).map { "\n" + $0.suffix(2000) } ?? ""
            if let driver {
                killEverything(driver: driver, watchdog: watchdog, profile: profile, scratch: scratch)
            } else {
                try? FileManager.default.removeItem(atPath: scratch)
            }
            if let error = error as? WebDriverError, !detail.isEmpty, error.code == "driver startup failure" {
                throw WebDriverError(
                    code: error.code, message: error.message + detail, command: error.command, httpStatus: error.httpStatus)
            }
            throw error
        }
    }

    /// Runs `body` with a freshly launched browser and quits it afterwards, whether `body`
    /// returns or throws: the defer-like shape every test should use.
    public static func withSession<T>(
        windowWidth: Int = 1280, windowHeight: Int = 900, extraArguments: [String] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Browser) async throws -> T
    ) async throws -> T {
        let browser = try await launch(windowWidth: windowWidth, windowHeight: windowHeight, extraArguments: extraArguments)
        do {
            let result = try await body(browser)
            await browser.quit()
            return result
        } catch {
            await browser.quit()
            throw error
        }
    }

    /// Ends the session, stops chromedriver and Chromium, and removes the temporary
    /// profile. It waits until the processes are gone (killing them if they linger), so
    /// afterwards none of them remains. Calling it again does nothing.
    ///
    /// Tests must call it on every path (see `withSession`); the `deinit` and the watchdog
    /// are only safety nets.
    public func quit() async {
        let first = quitStarted.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        _ = try? await session.client.send("DELETE", "/session/\(session.id)", command: "quit()", timeout: 10)
        _ = try? await session.client.send("GET", "/shutdown", command: "quit() shutdown", timeout: 5)
        if (try? await driver.wait(timeout: .seconds(3))) == nil {
            driver.signalGroup(SIGTERM)
            if (try? await driver.wait(timeout: .seconds(2))) == nil {
                driver.signalGroup(SIGKILL)
                _ = try? await driver.wait(timeout: .seconds(2))
            }
        }
        // Chromium's own processes may take a moment after the driver; then insist.
        let marker = "--user-data-dir=\(profileDirectory)"
        let deadline = ContinuousClock.now + .seconds(3)
        while !ProcessTable.processIDs(withArgumentContaining: marker).isEmpty, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        for pid in ProcessTable.processIDs(withArgumentContaining: marker) { kill(pid, SIGKILL) }
        watchdog.signalGroup(SIGKILL)
        try? FileManager.default.removeItem(atPath: scratchDirectory)
        BrowserSlots.shared.give()
    }

    /// The ids of the Chromium processes (browser, renderers, GPU and utility processes)
    /// running for this browser, found by its private profile directory. Empty after `quit()`.
    public func browserProcessIDs() -> [Int32] {
        ProcessTable.processIDs(withArgumentContaining: "--user-data-dir=\(profileDirectory)")
    }

    // MARK: Navigation and page

    /// Loads `url` and waits for its `load` event.
    public func go(to url: String) async throws {
        _ = try await session.send("POST", "/url", ["url": .string(url)], command: "go(to: \(quoted(url)))")
    }

    /// The URL of the current page.
    public func currentURL() async throws -> String {
        try await session.send("GET", "/url", command: "currentURL()").stringValue ?? ""
    }

    /// The current page's `document.title`.
    public func title() async throws -> String {
        try await session.send("GET", "/title", command: "title()").stringValue ?? ""
    }

    /// The current DOM serialised as HTML (not the bytes the server sent).
    public func pageSource() async throws -> String {
        try await session.send("GET", "/source", command: "pageSource()").stringValue ?? ""
    }

    /// Reloads the current page.
    public func reload() async throws {
        _ = try await session.send("POST", "/refresh", command: "reload()")
    }

    /// The first element matching `css`; throws a `no such element` error naming the
    /// selector when none does. It does not wait: use `waitUntil` for elements that appear later.
    public func find(_ css: String) async throws -> Element {
        try await session.findElement(css, under: "", describedAs: "")
    }

    /// Every element matching `css`, in document order; empty when none does.
    public func findAll(_ css: String) async throws -> [Element] {
        try await session.findElements(css, under: "", describedAs: "")
    }

    /// Runs `script` as the body of a function in the page and returns what it returns
    /// (so write `return …`). `args` are available as `arguments[0]`, …: strings, numbers,
    /// booleans, `nil`, `ScriptValue`s, `Element`s and arrays or `[String: …]` dictionaries
    /// of these. A returned promise is awaited.
    public func execute(_ script: String, _ args: [any Sendable] = []) async throws -> ScriptValue {
        let command = "execute(\(quoted(String(script.prefix(80)))))"
        let arguments = try args.map { try Self.scriptArgument($0, command: command) }
        return try await session.send(
            "POST", "/execute/sync", ["script": .string(script), "args": .array(arguments)], command: command)
    }

    /// The element a script returned (`return document.querySelector(…)`), or nil when
    /// `value` is not an element reference.
    public func element(from value: ScriptValue, describedAs selector: String = "<script result>") -> Element? {
        WebDriverSession.elementID(in: value).map { Element(session: session, id: $0, selector: selector) }
    }

    // MARK: Window and emulation

    /// Resizes the browser window (the outer size; headless Chromium has no toolbars, so
    /// the viewport gets the same size).
    public func setWindowSize(width: Int, height: Int) async throws {
        _ = try await session.send(
            "POST", "/window/rect", ["width": .number(Double(width)), "height": .number(Double(height))],
            command: "setWindowSize(width: \(width), height: \(height))")
    }

    /// Makes the page behave as on a phone: Chrome DevTools' device-metrics override with
    /// `mobile: true` and device scale factor 3, plus touch emulation, so CSS media
    /// queries, `window.innerWidth` and the layout viewport match a `width`×`height`
    /// phone. It lasts for the rest of the session, across navigations.
    ///
    /// As on a real phone, the page needs `<meta name="viewport" content="width=device-width">`
    /// for the layout viewport to be `width` rather than the legacy 980 px.
    public func emulatePhone(width: Int = 390, height: Int = 844) async throws {
        let command = "emulatePhone(width: \(width), height: \(height))"
        try await devTools(
            "Emulation.setDeviceMetricsOverride",
            ["width": .number(Double(width)), "height": .number(Double(height)), "deviceScaleFactor": 3,
             "mobile": true, "screenWidth": .number(Double(width)), "screenHeight": .number(Double(height))],
            command: command)
        try await devTools("Emulation.setTouchEmulationEnabled", ["enabled": true, "maxTouchPoints": 5], command: command)
    }

    /// Undoes `emulatePhone`, back to the desktop window.
    public func stopEmulatingPhone() async throws {
        try await devTools("Emulation.clearDeviceMetricsOverride", [:], command: "stopEmulatingPhone()")
        try await devTools("Emulation.setTouchEmulationEnabled", ["enabled": false], command: "stopEmulatingPhone()")
    }

    /// Runs one Chrome DevTools Protocol command through chromedriver
    /// (`POST /session/{id}/goog/cdp/execute`) and returns its result.
    @discardableResult
    public func devTools(_ method: String, _ parameters: [String: ScriptValue], command: String? = nil)
        async throws -> ScriptValue
    {
        try await session.send(
            "POST", "/goog/cdp/execute", ["cmd": .string(method), "params": .object(parameters)],
            command: command ?? "devTools(\(quoted(method)))")
    }

    /// A PNG screenshot of the viewport.
    public func screenshot() async throws -> Data {
        let encoded = try await session.send("GET", "/screenshot", command: "screenshot()").stringValue ?? ""
        guard let data = Data(base64Encoded: encoded) else {
            throw WebDriverError(code: "invalid response", message: "screenshot is not base64", command: "screenshot()")
        }
        return data
    }

    // MARK: Waiting

    /// Polls `condition` every 50 ms until it returns true; after `timeout` (a hang guard, 30 s by
    /// default, so a busy machine is not a failure) throws a
    /// `WaitTimeoutError` naming `what`. A condition that throws counts as "not yet" (an
    /// element may not exist yet); its last error is reported on timeout. Use this instead
    /// of sleeping.
    public func waitUntil(
        timeout: Duration = .seconds(30), _ what: String, _ condition: @Sendable () async throws -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var lastError: String?
        while true {
            do {
                if try await condition() { return }
                lastError = nil
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                lastError = String(describing: error)
            }
            if clock.now >= deadline { throw WaitTimeoutError(what: what, timeout: timeout, lastError: lastError) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    // MARK: Dialogs

    /// Presses OK on the open `alert`, `confirm` or `prompt` (a `confirm()` then returns true).
    public func acceptAlert() async throws {
        _ = try await session.send("POST", "/alert/accept", command: "acceptAlert()")
    }

    /// Presses Cancel on the open dialog (a `confirm()` then returns false).
    public func dismissAlert() async throws {
        _ = try await session.send("POST", "/alert/dismiss", command: "dismissAlert()")
    }

    /// The message of the open dialog, or nil when none is open.
    public func alertText() async throws -> String? {
        do {
            return try await session.send("GET", "/alert/text", command: "alertText()").stringValue
        } catch let error as WebDriverError where error.code == "no such alert" {
            return nil
        }
    }

    // MARK: Cookies

    /// The cookies visible to the current page, `HttpOnly` ones included.
    public func cookies() async throws -> [Cookie] {
        let value = try await session.send("GET", "/cookie", command: "cookies()")
        return (value.arrayValue ?? []).compactMap(Cookie.init)
    }

    /// Deletes all cookies of the current page's domain.
    public func deleteAllCookies() async throws {
        _ = try await session.send("DELETE", "/cookie", command: "deleteAllCookies()")
    }

    // MARK: Helpers

    private static func startDriver(_ chromedriver: String, log: String) async throws
        -> (process: ChildProcess, client: WebDriverClient)
    {
        var lastFailure = "no free port on 127.0.0.1"
        for _ in 0..<3 {
            guard let port = LoopbackPort.free() else { continue }
            let process = try await ChildProcess.start(
                chromedriver, ["--port=\(port)"], standardOutput: log, standardError: log, ownProcessGroup: true)
            let client = WebDriverClient(port: port)
            // A hang guard: a busy machine can take long to start chromedriver.
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline {
                if let status = try? await client.send("GET", "/status", command: "launch() status", timeout: 1),
                   status["ready"]?.boolValue == true {
                    return (process, client)
                }
                if !process.isRunning { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            if process.isRunning {
                process.signalGroup(SIGKILL)
                lastFailure = "chromedriver on port \(port) was not ready within 60 seconds"
                break
            }
            // Exited: most likely another process took the port in between; try another.
            lastFailure = "chromedriver exited while starting on port \(port)"
        }
        throw WebDriverError(code: "driver startup failure", message: lastFailure, command: "launch()")
    }

    private static func chromiumArguments(width: Int, height: Int, profile: String) -> [String] {
        [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--window-size=\(width),\(height)", "--user-data-dir=\(profile)",
            "--no-first-run", "--no-default-browser-check", "--disable-default-apps", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--disable-domain-reliability", "--disable-client-side-phishing-detection", "--disable-breakpad",
            "--metrics-recording-only", "--password-store=basic", "--use-mock-keychain", "--mute-audio",
            "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication",
        ]
    }

    private static func killEverything(driver: ChildProcess, watchdog: ChildProcess?, profile: String, scratch: String) {
        driver.signalGroup(SIGKILL)
        for pid in ProcessTable.processIDs(withArgumentContaining: "--user-data-dir=\(profile)") { kill(pid, SIGKILL) }
        watchdog?.signalGroup(SIGKILL)
        try? FileManager.default.removeItem(atPath: scratch)
    }

    private static func scriptArgument(_ value: any Sendable, command: String) throws -> ScriptValue {
        switch value {
        case let value as ScriptValue: return value
        case let value as Element: return value.reference
        case let value as String: return .string(value)
        case let value as Bool: return .bool(value)
        case let value as Int: return .number(Double(value))
        case let value as Double: return .number(value)
        case let value as Float: return .number(Double(value))
        case let value as [any Sendable]: return .array(try value.map { try scriptArgument($0, command: command) })
        case let value as [String: any Sendable]:
            return .object(try value.mapValues { try scriptArgument($0, command: command) })
        case let value as Optional<any Sendable>:
            guard let value else { return .null }
            return try scriptArgument(value, command: command)
        default:
            throw WebDriverError(
                code: "invalid argument", message: "cannot pass a \(type(of: value)) to a script", command: command)
        }
    }
}
