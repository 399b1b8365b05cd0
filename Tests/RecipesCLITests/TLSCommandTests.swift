import BrowserSupport
import Foundation
import InteropSupport
import TestSupport
import Testing

/// `recipes serve` and `recipes web` over HTTPS, and `recipes sync` trusting what the user
/// says, end to end with the real programs and certificates `openssl` makes for each test.
@Suite("TLS: serve, web and sync over https", .serialized,
       .enabled(if: TestCertificates.openssl != nil, "needs the openssl program to make test certificates"))
struct TLSCommandTests {
    /// A sandbox with a household CA and a certificate for 127.0.0.1 and localhost.
    private static func household(_ sandbox: Sandbox) async throws -> (TestCertificates, certificate: URL, key: URL) {
        let authority = try await TestCertificates.makeAuthority(in: sandbox.root.appendingPathComponent("tls"))
        let (certificate, key) = try await authority.issue("server")
        return (authority, certificate, key)
    }

    /// The database URL of an https server, with the administrator's credentials.
    private static func httpsURL(_ server: ServedDatabase, _ name: String = "recipes") -> String {
        server.baseURL.replacingOccurrences(of: "https://", with: "https://\(ServedDatabase.user):\(ServedDatabase.password)@") + "/\(name)"
    }

    @Test("serve and web refuse a missing, unreadable, non-PEM or mismatched certificate or key with one line, before listening")
    func badFilesAreRefusedBeforeListening() async throws {
        let sandbox = try Sandbox()
        let (authority, certificate, key) = try await Self.household(sandbox)
        let (_, otherKey) = try await authority.issue("other", serial: 9)
        let garbage = try sandbox.write("garbage.pem", Data("not a certificate\n".utf8))
        let missing = sandbox.path("missing.pem")
        let cases: [(arguments: [String], names: String, says: String)] = [
            (["--tls-cert", missing, "--tls-key", key.path], missing, "no such file"),
            (["--tls-cert", garbage, "--tls-key", key.path], garbage, "not PEM"),
            (["--tls-cert", certificate.path, "--tls-key", garbage], garbage, "not PEM"),
            (["--tls-cert", certificate.path, "--tls-key", otherKey.path], otherKey.path, "not the private key"),
            (["--tls-cert", certificate.path], "--tls-cert", "needs --tls-key"),
        ]
        for (arguments, names, says) in cases {
            for command in [["serve", "--data-dir", sandbox.path("server"), "--port", "0", "--allow-anonymous-reads"],
                            ["web", "--store", sandbox.path("book.sqlite"), "--no-samples", "--port", "0"]] {
                let result = try await sandbox.run(command + arguments)
                #expect(result.status != 0, "\(command[0]) \(arguments): \(result)")
                #expect(!result.stdout.contains("listening on"), "\(command[0]) \(arguments): \(result)")
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.count == 1, "\(command[0]) \(arguments): one line, got \(result.stderr)")
                #expect(result.stderr.contains(names) && result.stderr.contains(says), "\(command[0]) \(arguments): \(result.stderr)")
            }
        }
    }

    @Test("sync to an https serve works with --ca-file, RECIPES_CA_FILE or caFile in the configuration, and fails in one line without")
    func syncTrustsOnlyWhatTheUserSays() async throws {
        let sandbox = try Sandbox()
        let (authority, certificate, key) = try await Self.household(sandbox)
        try await withServer(ServedDatabase(in: sandbox, arguments: ["--tls-cert", certificate.path, "--tls-key", key.path])) { server in
            #expect(server.baseURL.hasPrefix("https://127.0.0.1:"), "\(server.baseURL)")
            let remote = Self.httpsURL(server)
            let store = ["--store", sandbox.path("a.sqlite"), "--remote", remote]
            #expect(try await sandbox.run(["add", "--name", "Household Stew", "--no-samples"] + store).status == 0)

            let refused = try await sandbox.run(["sync"] + store)
            #expect(refused.status == 1, "\(refused)")
            // The sync's step report as for any failure, then its one error line.
            let failures = refused.stderr.split(separator: "\n").filter { $0.hasPrefix("recipes: ") }
            #expect(failures.count == 1 && failures[0].contains("127.0.0.1") && failures[0].contains("not trusted"), "\(refused.stderr)")
            #expect(!refused.stderr.contains(ServedDatabase.password))

            let synced = try await sandbox.run(["sync", "--ca-file", authority.caCertificate.path] + store)
            #expect(synced.status == 0, "\(synced)")
            let byEnvironment = try await sandbox.run(["sync", "--store", sandbox.path("b.sqlite"), "--no-samples", "--remote", remote],
                                                      environment: ["RECIPES_CA_FILE": authority.caCertificate.path])
            #expect(byEnvironment.status == 0, "\(byEnvironment)")
            try sandbox.write("config/recipes/recipes.json", Data(#"{"caFile": "\#(authority.caCertificate.path)"}"#.utf8))
            let byFile = try await sandbox.run(["sync", "--store", sandbox.path("c.sqlite"), "--no-samples", "--remote", remote])
            #expect(byFile.status == 0, "\(byFile)")
            let list = try #require(try await sandbox.run(["list", "--json", "--no-samples", "--store", sandbox.path("c.sqlite")]).json() as? [[String: Any]])
            #expect(list.compactMap { $0["name"] as? String }.contains("Household Stew"))
        }
    }

    @Test("a server-side _replicate from an https serve trusts the CA serve was given with --ca-file, and fails without it")
    func serverSideReplicationTrustsTheGivenCA() async throws {
        let sandbox = try Sandbox()
        let (authority, certificate, key) = try await Self.household(sandbox)
        try await withServer(ServedDatabase(in: sandbox, arguments: ["--tls-cert", certificate.path, "--tls-key", key.path])) { secure in
            let probe = try HTTPSProbe(trusting: [authority.caCertificate])
            let authorization = [("Authorization", ServedDatabase.authorization), ("Content-Type", "application/json")]
            #expect(try await probe.send("PUT", secure.baseURL + "/recipes", headers: authorization).status == 201)
            #expect(try await probe.send("PUT", secure.baseURL + "/recipes/stew", headers: authorization, body: #"{"name":"Household Stew"}"#).status == 201)
            let body = #"{"source": "\#(Self.httpsURL(secure))", "target": "copy", "create_target": true}"#
            func replicate(on server: ServedDatabase) async throws -> HTTPSProbe.Reply {
                try await probe.send("POST", server.baseURL + "/_replicate", headers: authorization, body: body)
            }
            let trusting = try await ServedDatabase(in: Sandbox(), arguments: ["--ca-file", authority.caCertificate.path])
            let copied = try await replicate(on: trusting)
            #expect(copied.status == 200 && copied.body.contains(#""ok":true"#), "\(copied)")
            let document = try await trusting.get("/copy/stew")
            #expect(document["name"] as? String == "Household Stew")
            await trusting.stop()

            let untrusting = try await ServedDatabase(in: Sandbox())
            let refused = try await replicate(on: untrusting)
            #expect(refused.status >= 400 && refused.body.contains("not trusted"), "\(refused)")
            #expect(!refused.body.contains(ServedDatabase.password))
            await untrusting.stop()
        }
    }

    @Test("SIGHUP makes a running serve present a renewed certificate to new connections and keeps serving")
    func hangupReloadsTheCertificate() async throws {
        let sandbox = try Sandbox()
        let (first, certificate, key) = try await Self.household(sandbox)
        let second = try await TestCertificates.makeAuthority(in: sandbox.root.appendingPathComponent("tls2"), name: "Renewed Test CA")
        try await withServer(ServedDatabase(in: sandbox, arguments: ["--tls-cert", certificate.path, "--tls-key", key.path])) { server in
            let early = try HTTPSProbe(trusting: [first.caCertificate])
            #expect(try await early.send("GET", server.baseURL + "/_up").status == 200)
            let (renewed, renewedKey) = try await second.issue("server", serial: 2)
            try FileManager.default.removeItem(at: certificate)
            try FileManager.default.removeItem(at: key)
            try FileManager.default.copyItem(at: renewed, to: certificate)
            try FileManager.default.copyItem(at: renewedKey, to: key)
            server.server.signal(SIGHUP)
            let renewedClient = try HTTPSProbe(trusting: [second.caCertificate])
            let presented = await waitUntil(timeout: 30) {
                (try? await HTTPSProbe(trusting: [second.caCertificate]).send("GET", server.baseURL + "/_up").status) == 200
            }
            #expect(presented, "new connections get the renewed certificate")
            #expect(server.server.isRunning)
            #expect(try await renewedClient.send("GET", server.baseURL + "/_up").status == 200)
            #expect(try await early.send("GET", server.baseURL + "/_up").status == 200, "the connection opened before is still served")
        }
    }

    @Test("binding beyond loopback without TLS warns once that passwords cross the network in clear; with TLS it does not")
    func plaintextBeyondLoopbackWarns() async throws {
        let sandbox = try Sandbox()
        let (_, certificate, key) = try await Self.household(sandbox)
        for tls in [false, true] {
            let arguments = ["serve", "--data-dir", sandbox.path("server"), "--bind", "0.0.0.0", "--port", "0", "--allow-anonymous-reads"]
                + (tls ? ["--tls-cert", certificate.path, "--tls-key", key.path] : [])
            let server = try await sandbox.start(arguments)
            #expect(await server.waitForOutput(containing: "listening on ") != nil, "\(server.stderr)")
            let warnings = server.stderr.split(separator: "\n").filter { $0.contains("in clear") }
            #expect(warnings.count == (tls ? 0 : 1), "\(server.stderr)")
            _ = await server.stop()
        }
    }

    @Test("web over https: Secure session cookie, Strict-Transport-Security, and the TLS files from the configuration file")
    func webServesHTTPS() async throws {
        let sandbox = try Sandbox()
        let (authority, certificate, key) = try await Self.household(sandbox)
        try sandbox.write("config/recipes/recipes.json",
                          Data(#"{"tlsCert": "\#(certificate.path)", "tlsKey": "\#(key.path)"}"#.utf8))
        let web = try await sandbox.start(["web", "--store", sandbox.path("book.sqlite"), "--port", "0"])
        let out = try #require(await web.waitForOutput(containing: "listening on "), "\(web.stderr)")
        let line = out.split(separator: "\n").first { $0.contains("listening on ") } ?? ""
        let base = String(line.split(separator: " ").last ?? "")
        #expect(base.hasPrefix("https://127.0.0.1:"), "\(line)")
        let client = try HTTPSProbe(trusting: [authority.caCertificate])
        let page = try await client.send("GET", base + "/")
        #expect(page.status == 200)
        #expect(page.body.contains("Banana Bread"))
        #expect(page.header("Strict-Transport-Security").first?.hasPrefix("max-age=") == true)
        let cookie = page.header("Set-Cookie").first ?? ""
        #expect(cookie.contains("recipes_session=") && cookie.contains("Secure"), "\(cookie)")
        _ = await web.stop()
    }
}

/// `recipes web` over HTTPS in a real headless Chromium that trusts the household CA.
@Suite("recipes web over https in a real browser",
       .enabled(if: BrowserAvailability.unavailableReason() == nil, "\(BrowserAvailability.unavailableReason() ?? "")"),
       .enabled(if: TestCertificates.openssl != nil, "needs the openssl program to make test certificates"))
struct WebBrowserTLSTests {
    @Test("the book loads over https in Chromium trusting the CA, and not in one that does not")
    func bookLoadsOverHTTPS() async throws {
        let sandbox = try Sandbox()
        let authority = try await TestCertificates.makeAuthority(in: sandbox.root.appendingPathComponent("tls"))
        let (_, key) = try await authority.issue("server")
        let chain = try authority.chain("server")
        let server = try await WebServerProcess(in: sandbox, arguments: ["--store", sandbox.path("book.sqlite"),
                                                                         "--tls-cert", chain.path, "--tls-key", key.path])
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"), "\(server.baseURL)")
        // Headless Chromium on Linux keeps its trusted CAs in an NSS database; without one, it
        // is told the CA's key, and trusts the chains that carry it.
        let digest = try await authority.caPublicKeyDigest()
        try await Browser.withSession(extraArguments: ["--ignore-certificate-errors-spki-list=\(digest)"]) { browser in
            try await browser.go(to: server.baseURL + "/")
            let names = try await WebBrowserTests.cardNames(browser)
            #expect(names.contains("Apple Crumble"), "\(names)")
            #expect(try await browser.execute("return window.isSecureContext && location.protocol").stringValue == "https:")
            let widths = try await WebBrowserTests.loadedImageWidths(browser, ".card img")
            #expect(!widths.isEmpty && widths.allSatisfy { $0 > 0 }, "thumbnails load over https too: \(widths)")
        }
        try await Browser.withSession { browser in
            try? await browser.go(to: server.baseURL + "/")
            let names = (try? await WebBrowserTests.cardNames(browser)) ?? []
            #expect(names.isEmpty, "a browser that does not trust the CA shows no book: \(names)")
        }
        _ = await server.process.stop()
    }
}
