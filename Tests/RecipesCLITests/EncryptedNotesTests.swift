import DocumentStore
import Foundation
import RecipesKit
import Testing
import TestSupport
import DocumentFormat

/// `--notes`, `show`, password sources, wrong passwords, tampering and `rekey`, through the
/// real program on a real store file.
@Suite("recipes: encrypted notes", .serialized)
struct EncryptedNotesTests {
    @Test func notesRoundTripAndEveryFailureIsReported() async throws {
        let sandbox = try Sandbox()
        let store = sandbox.path("book.sqlite")
        let password = try sandbox.write("pw.txt", Data("s3cret password\n".utf8))
        let wrong = try sandbox.write("wrong.txt", Data("guess\n".utf8))
        let newPassword = try sandbox.write("new.txt", Data("brand new\n".utf8))
        let base = ["--store", store, "--no-samples"]

        var result = try await sandbox.run(["add", "--name", "Secret Soup", "--notes", "grandma's trick"] + base + ["--password-file", password])
        #expect(result.status == 0, "\(result)")
        let notesFile = try sandbox.write("notes.txt", Data("line one\nline two".utf8))
        result = try await sandbox.run(["add", "--name", "Plain Bread", "--notes-file", notesFile] + base + ["--password-file", password])
        #expect(result.status == 0, "\(result)")

        // With the password (option, environment, config file) the notes show.
        result = try await sandbox.run(["show", "secret soup"] + base + ["--password-file", password])
        #expect(result.status == 0 && result.stdout.contains("grandma's trick"), "\(result)")
        result = try await sandbox.run(["show", "plain bread"] + base, environment: ["RECIPES_PASSWORD_FILE": password])
        #expect(result.stdout.contains("  line one\n  line two"), "\(result)")
        try sandbox.write("config/recipes/recipes.json", Data(#"{"passwordFile": "../../pw.txt"}"#.utf8))
        result = try await sandbox.run(["show", "secret soup", "--json"] + base)
        var json = try #require(try result.json() as? [String: Any], "\(result)")
        #expect(json["notes"] as? String == "grandma's trick" && json["notesEncrypted"] as? Bool == false)
        try FileManager.default.removeItem(atPath: sandbox.path("config/recipes/recipes.json"))

        // Without it: shown as encrypted, never as ciphertext.
        result = try await sandbox.run(["show", "secret soup"] + base)
        #expect(result.status == 0 && result.stdout.contains("notes: (encrypted)") && !result.stdout.contains("grandma"), "\(result)")
        result = try await sandbox.run(["show", "secret soup", "--json"] + base)
        json = try #require(try result.json() as? [String: Any], "\(result)")
        #expect(json["notes"] is NSNull && json["notesEncrypted"] as? Bool == true)
        // list neither needs nor shows them.
        result = try await sandbox.run(["list"] + base)
        #expect(result.status == 0 && result.stdout.contains("Secret Soup"), "\(result)")

        // A wrong password: one line, exit 1, nothing written.
        let before = try await sandbox.run(["list", "--json"] + base).stdout
        for command in [["edit", "secret soup", "--notes", "overwritten"], ["add", "--name", "Intruder", "--notes", "x"],
                        ["show", "secret soup"]] {
            result = try await sandbox.run(command + base + ["--password-file", wrong])
            #expect(result.status == 1 && result.stderr == "recipes: wrong password for the encrypted notes\n", "\(result)")
        }
        #expect(try await sandbox.run(["list", "--json"] + base).stdout == before)
        // Editing the notes without a password is refused; other edits work and keep them.
        result = try await sandbox.run(["edit", "secret soup", "--notes", "overwritten"] + base)
        #expect(result.status == 1 && result.stderr.contains("no password was given"), "\(result)")
        result = try await sandbox.run(["edit", "secret soup", "--overview", "Hot"] + base)
        #expect(result.status == 0, "\(result)")
        result = try await sandbox.run(["show", "secret soup"] + base + ["--password-file", password])
        #expect(result.stdout.contains("grandma's trick") && result.stdout.contains("Hot"), "\(result)")

        // rekey: the old password stops working, the new one reads everything.
        result = try await sandbox.run(["rekey", "--new-password-file", newPassword] + base + ["--password-file", password])
        #expect(result.status == 0 && result.stdout.contains("re-encrypted 2 values"), "\(result)")
        result = try await sandbox.run(["show", "secret soup"] + base + ["--password-file", password])
        #expect(result.status == 1 && result.stderr == "recipes: wrong password for the encrypted notes\n", "\(result)")
        result = try await sandbox.run(["show", "plain bread"] + base + ["--password-file", newPassword])
        #expect(result.status == 0 && result.stdout.contains("line two"), "\(result)")

        // A value changed behind our back (HMAC mismatch) is reported with its ID, not shown;
        // the other recipe still shows.
        let id: String
        do {
            let opened = try RecipesStore(url: URL(fileURLWithPath: store))
            let shown = try await sandbox.run(["show", "secret soup", "--json"] + base)
            id = try #require((try shown.json() as? [String: Any])?["id"] as? String)
            let revision = try #require(try opened.documentStore.get(id: id))
            let stored = try #require(revision.body["notes"]?.stringValue)
            var bytes = try #require(Data(base64Encoded: stored))
            bytes[bytes.count - 40] ^= 0x01
            var body = revision.body
            body["notes"] = .string(bytes.base64EncodedString())
            try opened.documentStore.update(id: id, parent: revision.rev, body: body)
        }
        result = try await sandbox.run(["show", "secret soup"] + base + ["--password-file", newPassword])
        #expect(result.status == 1 && result.stderr.contains(id) && result.stderr.contains("HMAC mismatch"), "\(result)")
        #expect(result.stdout.contains("Secret Soup") && !result.stdout.contains("grandma"), "\(result)")
        result = try await sandbox.run(["show", "plain bread"] + base + ["--password-file", newPassword])
        #expect(result.status == 0 && result.stdout.contains("line one"), "\(result)")
        // A rekey cannot read the tampered value, so it changes nothing.
        result = try await sandbox.run(["rekey", "--new-password-file", password] + base + ["--password-file", newPassword])
        #expect(result.status == 1 && result.stderr.contains(id), "\(result)")
        result = try await sandbox.run(["show", "plain bread"] + base + ["--password-file", newPassword])
        #expect(result.status == 0 && result.stdout.contains("line one"), "\(result)")
    }

    /// Which of `passwords` open the store at `path`, each with whether it reads every
    /// recipe's notes as `expected` gives them (by recipe name).
    static func opening(_ path: String, with passwords: [String], expected: [String: String]) throws -> [String: Bool] {
        var result: [String: Bool] = [:]
        for password in passwords {
            let store = try RecipesStore(url: URL(fileURLWithPath: path))
            // Closed before the next: a test process holding many open files makes every
            // later process spawn costlier (Foundation lists /proc/self/fd).
            defer { try? store.documentStore.close() }
            do {
                try store.unlock(password: password)
            } catch {
                guard error.description.contains("wrong password") else { throw error }
                continue
            }
            let book = store.container.newBook()
            result[password] = try book.allRecipes().allSatisfy { recipe in
                let details = try book.details(of: recipe)
                return details.notes == expected[details.name]
            }
        }
        return result
    }

    /// Kills `rekey` at random moments (`RECIPES_REKEY_KILLS` times, 10 by default) and checks
    /// after each that exactly one of the two passwords opens the store and that it reads
    /// every note; a rekey then runs to the end with the password that opened it.
    @Test func aRekeyKilledAtAnyMomentLeavesExactlyOnePasswordOpeningEveryNote() async throws {
        let sandbox = try Sandbox()
        let path = sandbox.path("book.sqlite")
        let base = ["--store", path, "--no-samples"]
        let passwords = ["first password", "second password"]
        let files = try passwords.map { try sandbox.write("\($0.split(separator: " ")[0]).txt", Data("\($0)\r\n".utf8)) }
        var expected: [String: String] = [:]
        for index in 0..<12 {
            let notes = String(repeating: "note \(index) ", count: 200)
            let added = try await sandbox.run(["add", "--name", "Noted \(index)", "--notes", notes] + base + ["--password-file", files[0]])
            #expect(added.status == 0, "\(added)")
            expected["Noted \(index)"] = notes
        }
        let kills = ProcessInfo.processInfo.environment["RECIPES_REKEY_KILLS"].flatMap { Int($0) } ?? 10
        var generator = SystemRandomNumberGenerator()
        var current = 0
        var outcomes: [String: Int] = [:]
        for attempt in 0..<kills {
            let next = 1 - current
            let rekey = try await sandbox.start(["rekey", "--new-password-file", files[next]] + base + ["--password-file", files[current]])
            let delay = Int.random(in: 0...400, using: &generator)
            // The scenario: a kill at a random moment of the rekey.
            try await simulatedDelay(.milliseconds(delay))
            rekey.signal(SIGKILL)
            let finished = try await rekey.finish()
            let opened = try Self.opening(path, with: passwords, expected: expected)
            #expect(opened.count == 1 && opened.values.allSatisfy { $0 },
                    "kill \(attempt) after \(delay) ms: \(opened) opened the store (true: read every note); rekey: \(finished)")
            guard let winner = opened.keys.first, let index = passwords.firstIndex(of: winner) else { break }
            outcomes[index == current ? "old password" : "new password", default: 0] += 1
            current = index
        }
        let done = try await sandbox.run(["rekey", "--new-password-file", files[1 - current]] + base + ["--password-file", files[current]])
        #expect(done.status == 0 && done.stdout.contains("re-encrypted 12 values"), "\(done)")
        #expect(try Self.opening(path, with: passwords, expected: expected) == [passwords[1 - current]: true])
        print("rekey killed \(kills) times: the store opened afterwards with \(outcomes.sorted { $0.key < $1.key })")
    }

    @Test func rekeyOnAMissingStoreOrOntoTheSamePasswordWritesNothing() async throws {
        let sandbox = try Sandbox()
        let password = try sandbox.write("pw.txt", Data("the password\n".utf8))
        let other = try sandbox.write("other.txt", Data("another\n".utf8))
        let missing = sandbox.path("nowhere.sqlite")
        let refused = try await sandbox.run(["rekey", "--store", missing, "--password-file", password, "--new-password-file", other])
        #expect(refused.status == 1 && refused.stderr.contains("there is no store at \(missing)"), "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: missing))

        let base = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        #expect(try await sandbox.run(["add", "--name", "Noted", "--notes", "kept"] + base + ["--password-file", password]).status == 0)
        func lastSequence() throws -> Int64 {
            let store = try DocumentStore(path: sandbox.path("book.sqlite"))
            defer { try? store.close() }
            return try store.lastSequence
        }
        let before = try lastSequence()
        let same = try await sandbox.run(["rekey", "--new-password-file", password] + base + ["--password-file", password])
        #expect(same.status == 0 && same.stdout.contains("re-encrypted 0 values"), "\(same)")
        #expect(try lastSequence() == before, "the same password rewrote documents")
        let wrong = try await sandbox.run(["rekey", "--new-password-file", other] + base + ["--password-file", other])
        #expect(wrong.status == 1 && wrong.stderr.contains("wrong password"), "\(wrong)")
    }

    @Test func passwordFilesTakeTheirFirstLineWithoutCRLFAndADirectoryIsNamed() async throws {
        let sandbox = try Sandbox()
        let base = ["--store", sandbox.path("book.sqlite"), "--no-samples"]
        let crlf = try sandbox.write("crlf.txt", Data("windows pw\r\nsecond line\r\n".utf8))
        let lf = try sandbox.write("lf.txt", Data("windows pw\n".utf8))
        #expect(try await sandbox.run(["add", "--name", "Noted", "--notes", "crlf"] + base + ["--password-file", crlf]).status == 0)
        let shown = try await sandbox.run(["show", "Noted"] + base + ["--password-file", lf])
        #expect(shown.status == 0 && shown.stdout.contains("crlf"), "the CR stayed in the password: \(shown)")
        let folder = sandbox.path("a-folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let directory = try await sandbox.run(["show", "Noted"] + base + ["--password-file", folder])
        #expect(directory.status == 1 && directory.stderr.contains("is a directory"), "\(directory)")
        #expect(!directory.stderr.contains("NSCocoaErrorDomain"), "\(directory)")
    }

    @Test func notesSyncThroughServeAsCiphertextAndReadWithTheSamePassword() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { server in
            let password = try sandbox.write("pw.txt", Data("shared secret\n".utf8))
            let other = try sandbox.write("other.txt", Data("not ours\n".utf8))
            let a = ["--store", sandbox.path("a.sqlite"), "--remote", server.url(), "--no-samples"]
            let b = ["--store", sandbox.path("b.sqlite"), "--remote", server.url(), "--no-samples"]
            var result = try await sandbox.run(["add", "--name", "Synced Stew", "--notes", "add the secret spice"] + a + ["--password-file", password])
            #expect(result.status == 0, "\(result)")
            #expect(try await sandbox.run(["sync"] + a).status == 0)
            // The server holds the value only as an RNCryptor v3 message (base64, version byte 3).
            let id = try #require((try await sandbox.run(["show", "synced stew", "--json"] + a).json() as? [String: Any])?["id"] as? String)
            let document = try await server.get("/recipes/" + id)
            let stored = try #require(document["notes"] as? String)
            #expect(Data(base64Encoded: stored)?.first == 3 && !stored.contains("secret spice"))
            // Another machine with the same password (its own salts) reads it after a pull.
            #expect(try await sandbox.run(["sync"] + b).status == 0)
            result = try await sandbox.run(["show", "synced stew"] + b + ["--password-file", password])
            #expect(result.status == 0 && result.stdout.contains("add the secret spice"), "\(result)")
            // Its edit syncs back to the first machine.
            result = try await sandbox.run(["edit", "synced stew", "--notes", "less spice"] + b + ["--password-file", password])
            #expect(result.status == 0, "\(result)")
            #expect(try await sandbox.run(["sync"] + b).status == 0)
            #expect(try await sandbox.run(["sync"] + a).status == 0)
            result = try await sandbox.run(["show", "synced stew"] + a + ["--password-file", password])
            #expect(result.status == 0 && result.stdout.contains("less spice"), "\(result)")
            // A third machine with another password is told so, and still lists the recipe.
            let c = ["--store", sandbox.path("c.sqlite"), "--remote", server.url(), "--no-samples"]
            #expect(try await sandbox.run(["sync"] + c).status == 0)
            result = try await sandbox.run(["show", "synced stew"] + c + ["--password-file", other])
            #expect(result.status == 1 && result.stderr == "recipes: wrong password for the encrypted notes\n", "\(result)")
            result = try await sandbox.run(["show", "synced stew"] + c)
            #expect(result.status == 0 && result.stdout.contains("notes: (encrypted)"), "\(result)")
        }
    }
}
