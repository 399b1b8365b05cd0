import Foundation
import RecipesKit
import Testing
import TestSupport
import HTTPSupport

/// A server address typed without `http://` is refused with one line that suggests the
/// scheme, instead of being taken for a store path that keeps the password in a file name.
@Suite("recipes with a remote lacking its scheme")
struct SchemelessRemoteTests {
    @Test("sync --remote user:pass@host:port/db is refused, masked, and creates nothing")
    func syncRefusesSchemelessRemote() async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run([
            "sync", "--store", sandbox.path("a.sqlite"), "--no-samples", "--remote", "admin:s3cret@127.0.0.1:45984/recipes",
        ])
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("http://admin:***@127.0.0.1:45984/recipes"), "\(result)")
        #expect(!result.stderr.contains("s3cret") && !result.stdout.contains("s3cret"), "\(result)")
        #expect(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: "admin:s3cret@127.0.0.1:45984"))
    }

    @Test("status with a configured host:port remote without scheme is refused and shows no password")
    func statusRefusesSchemelessRemoteFromConfigFile() async throws {
        let sandbox = try Sandbox()
        let folder = sandbox.path("config/recipes")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(#"{"remote": "admin:s3cret@127.0.0.1:45984/recipes"}"#.utf8)
            .write(to: URL(fileURLWithPath: folder).appendingPathComponent("recipes.json"))
        let result = try await sandbox.run(["status", "--store", sandbox.path("a.sqlite"), "--no-samples"])
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("has no scheme") && !result.stderr.contains("s3cret"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["recipes.json"])

        let portOnly = try await sandbox.run(["status", "--store", sandbox.path("a.sqlite"), "--no-samples"],
                                             environment: ["RECIPES_REMOTE": "localhost:5984/recipes"])
        #expect(portOnly.status != 0 && portOnly.stderr.contains("http://localhost:5984/recipes"), "\(portOnly)")
    }

    @Test("paths that merely contain a colon or an at sign stay paths; masking covers scheme-less text")
    func pathsAndMasking() throws {
        #expect(RecipesConfiguration.looksLikeURLWithoutScheme("admin:s3cret@127.0.0.1:45984/recipes"))
        #expect(RecipesConfiguration.looksLikeURLWithoutScheme("db.example.com:5984/recipes"))
        #expect(RecipesConfiguration.looksLikeURLWithoutScheme("me@host/recipes"))
        #expect(!RecipesConfiguration.looksLikeURLWithoutScheme("./admin:s3cret@host/recipes.sqlite"))
        #expect(!RecipesConfiguration.looksLikeURLWithoutScheme("/var/lib/a:b@c/recipes.sqlite"))
        #expect(!RecipesConfiguration.looksLikeURLWithoutScheme("backups/recipes.sqlite"))
        #expect(!RecipesConfiguration.looksLikeURLWithoutScheme("notes:2024.sqlite"))
        #expect(CredentialMask.masked("admin:s3cret@127.0.0.1:45984/recipes") == "admin:***@127.0.0.1:45984/recipes")
        #expect(CredentialMask.maskedPath("/home/me/admin:s3cret@h:1/recipes") == "/home/me/admin:***@h:1/recipes")
        #expect(CredentialMask.masked("https://u:pw@h/db") == "https://u:***@h/db")
    }
}
