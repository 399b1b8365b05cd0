import DocumentStore
import Foundation
import ObjectGraph
import PasswordEncryption
import Testing
@testable import DocumentIncrementalStore
import TestSupport
import DocumentFormat

@Suite("Encrypted attributes (userInfo encrypted = YES)")
struct EncryptedAttributeTests {
    static let model = TestSupport.model("""
        <entity name="Note">
            <attribute name="title" attributeType="String"/>
            <attribute name="secret" optional="YES" attributeType="String">
                <userInfo><entry key="encrypted" value="YES"/></userInfo>
            </attribute>
            <attribute name="blob" optional="YES" attributeType="Binary">
                <userInfo><entry key="encrypted" value="YES"/></userInfo>
            </attribute>
        </entity>
        """, name: "Notes")

    /// Inserts one note and returns its document ID.
    static func insertNote(_ stack: DocumentStack, title: String, secret: String?, blob: Data? = nil) throws -> String {
        let ctx = stack.context()
        let note = try ctx.insert("Note")
        try note.setValue(.string(title), forKey: "title")
        try note.setValue(secret.map(AttributeValue.string) ?? .null, forKey: "secret")
        try note.setValue(blob.map(AttributeValue.data) ?? .null, forKey: "blob")
        try ctx.save()
        return note.objectID.referenceString
    }

    @Test func roundTripStoresOnlyRNCryptorMessages() throws {
        let dir = try TemporaryDirectory()
        let id: String
        do {
            let stack = try DocumentStack(model: Self.model, directory: dir)
            try stack.store.unlock(password: "correct horse")
            id = try Self.insertNote(stack, title: "a", secret: "the secret ✓", blob: Data([1, 2, 3]))
            let body = try #require(try stack.store.documentStore.get(id: id)).body
            // The document holds base64 of a v3 message, never the plaintext.
            let stored = try #require(body["secret"]?.stringValue)
            let message = try RNCryptorMessage(bytes: try #require(Data(base64Encoded: stored)))
            #expect(message.bytes.first == 3)
            #expect(!"\(body)".contains("the secret"))
            #expect(body["blob"]?.stringValue != nil)
            #expect(try stack.store.documentStore.attachment(id: id, name: "blob") == nil)
            // Any RNCryptor v3 reader with the password decrypts it.
            #expect(try PasswordEncryptor(password: "correct horse").decrypt(message.bytes) == Data("the secret ✓".utf8))
        }
        // A new process (new store instance) with the password reads the values back.
        let stack = try DocumentStack(model: Self.model, directory: dir)
        try stack.store.unlock(password: "correct horse")
        let readContext = stack.context()
        let note = try readContext.existingObject(with: ObjectID(entityName: "Note", referenceString: id))
        #expect(try note.string("secret") == "the secret ✓")
        #expect(try note.value(forKey: "blob") == .data(Data([1, 2, 3])))
        // Saving another change keeps the ciphertext byte for byte.
        let before = try #require(try stack.store.documentStore.get(id: id)).body["secret"]
        try note.setValue(.string("b"), forKey: "title")
        try readContext.save()
        #expect(try stack.store.documentStore.get(id: id)?.body["secret"] == before)
    }

    @Test func withoutPasswordValuesAreUnreadableButOtherChangesSave() throws {
        let dir = try TemporaryDirectory()
        let id: String
        do {
            let stack = try DocumentStack(model: Self.model, directory: dir)
            try stack.store.unlock(password: "pw")
            id = try Self.insertNote(stack, title: "a", secret: "hidden")
        }
        let stack = try DocumentStack(model: Self.model, directory: dir)
        let ctx = stack.context()
        let note = try ctx.existingObject(with: ObjectID(entityName: "Note", referenceString: id))
        #expect(try note.string("title") == "a")
        #expect(throws: EncryptedAttributeError.passwordRequired(documentID: id, attribute: "secret")) { try note.string("secret") }
        let before = try stack.store.documentStore.get(id: id)?.body["secret"]
        try note.setValue(.string("renamed"), forKey: "title")
        try ctx.save()
        #expect(try stack.store.documentStore.get(id: id)?.body["secret"] == before)
        // Changing the encrypted value without the password is refused.
        try note.setValue(.string("new secret"), forKey: "secret")
        #expect(throws: EncryptedAttributeError.passwordRequired(documentID: id, attribute: "secret")) { try ctx.save() }
    }

    @Test func wrongPasswordIsRefusedByTheKeyCheckWithoutWriting() throws {
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: Self.model, directory: dir)
        try stack.store.unlock(password: "right")
        _ = try Self.insertNote(stack, title: "a", secret: "s")
        let sequence = try stack.store.documentStore.lastSequence
        let other = try DocumentStack(model: Self.model, directory: dir)
        #expect(throws: EncryptedAttributeError.wrongPassword) { try other.store.unlock(password: "wrong") }
        #expect(try other.store.documentStore.lastSequence == sequence)
        try other.store.unlock(password: "right")
        // A replica without the key record (it is a local document) checks the first
        // password against a stored value instead.
        try stack.store.documentStore.deleteLocal(id: EncryptionKeyRecord.documentID)
        let replica = try DocumentStack(model: Self.model, directory: dir)
        #expect(throws: EncryptedAttributeError.wrongPassword) { try replica.store.unlock(password: "wrong") }
        #expect(try replica.store.documentStore.getLocal(id: EncryptionKeyRecord.documentID) == nil)
        try replica.store.unlock(password: "right")
    }

    /// A fresh replica that pulled values written on two replicas with two passwords takes
    /// either password first (each opens some of its values) and refuses a third, even when
    /// the values it meets first were written with the other password.
    @Test func aFreshReplicaTakesAnyPasswordThatOpensSomeOfItsValues() throws {
        let pulled = try TemporaryDirectory()
        do {
            let first = try DocumentStack(model: Self.model), second = try DocumentStack(model: Self.model)
            let target = try DocumentStack(model: Self.model, directory: pulled)
            try first.store.unlock(password: "kitchen")
            try second.store.unlock(password: "garden")
            for (stack, id) in [(second, "note-a1"), (second, "note-a2"), (second, "note-a3"), (first, "note-z")] {
                let ctx = stack.context()
                let note = try ctx.insert("Note", id: id)
                try note.setValue(.string(id), forKey: "title")
                try note.setValue(.string("written as \(id)"), forKey: "secret")
                try ctx.save()
                try TestSupport.replicate(id, from: stack.store.documentStore, to: target.store.documentStore)
            }
        }
        #expect(throws: EncryptedAttributeError.wrongPassword) {
            try DocumentStack(model: Self.model, directory: pulled).store.unlock(password: "cellar")
        }
        let replica = try DocumentStack(model: Self.model, directory: pulled)
        try replica.store.unlock(password: "kitchen")
        let context = replica.context()
        let mine = try context.existingObject(with: ObjectID(entityName: "Note", referenceString: "note-z"))
        #expect(try mine.string("secret") == "written as note-z")
        let theirs = try context.existingObject(with: ObjectID(entityName: "Note", referenceString: "note-a1"))
        #expect(throws: EncryptedAttributeError.self) { try theirs.string("secret") }
    }

    @Test func tamperedValueFailsOnlyItsOwnRead() throws {
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: Self.model, directory: dir)
        try stack.store.unlock(password: "pw")
        let good = try Self.insertNote(stack, title: "good", secret: "fine")
        let bad = try Self.insertNote(stack, title: "bad", secret: "will be changed")
        // Flip one ciphertext byte, as a server-side edit would.
        let revision = try #require(try stack.store.documentStore.get(id: bad))
        let stored = try #require(revision.body["secret"]?.stringValue)
        var bytes = try #require(Data(base64Encoded: stored))
        bytes[RNCryptorMessage.headerSize] ^= 0x40
        var body = revision.body
        body["secret"] = .string(bytes.base64EncodedString())
        try stack.store.documentStore.update(id: bad, parent: revision.rev, body: body)

        let fresh = try DocumentStack(model: Self.model, directory: dir)
        try fresh.store.unlock(password: "pw")
        let ctx = fresh.context()
        let notes = try ctx.fetch(FetchRequest(entityName: "Note"))
        #expect(notes.count == 2)
        for note in notes where note.objectID.referenceString == good { #expect(try note.string("secret") == "fine") }
        for note in notes where note.objectID.referenceString == bad {
            #expect(try note.string("title") == "bad")
            #expect(throws: EncryptedAttributeError.undecryptable(documentID: bad, attribute: "secret", reason: RNCryptorError.hmacMismatch.description)) {
                try note.string("secret")
            }
        }
    }

    @Test func predicatesAndSortsOnEncryptedAttributesAreRefused() throws {
        let stack = try DocumentStack(model: Self.model)
        try stack.store.unlock(password: "pw")
        _ = try Self.insertNote(stack, title: "a", secret: "s")
        let ctx = stack.context()
        let filter = FetchRequest(entityName: "Note", predicate: try ObjectPredicate(format: "secret == %@", "s"))
        #expect(throws: EncryptedAttributeError.notQueryable(entity: "Note", attribute: "secret", use: "filter")) { try ctx.fetch(filter) }
        let sort = FetchRequest(entityName: "Note", sortDescriptors: [FetchSortDescriptor("secret", ascending: true)])
        #expect(throws: EncryptedAttributeError.notQueryable(entity: "Note", attribute: "secret", use: "sort")) { try ctx.fetch(sort) }
        #expect(EncryptedAttributeError.notQueryable(entity: "Note", attribute: "secret", use: "filter").description
            == "cannot filter on Note.secret: it is encrypted and the store holds only ciphertext")
    }

    @Test func indexesOnEncryptedAttributesAreRefused() throws {
        let textIndexed = TestSupport.model("""
            <entity name="Note">
                <attribute name="secret" optional="YES" attributeType="String">
                    <userInfo><entry key="encrypted" value="YES"/><entry key="textIndexed" value="YES"/></userInfo>
                </attribute>
            </entity>
            """, name: "Indexed")
        #expect(throws: EncryptedAttributeError.notIndexable(entity: "Note", attribute: "secret")) {
            _ = try DocumentStack(model: textIndexed)
        }
        // The recipes model's full-text indexes leave the encrypted notes out.
        let indexes = ModelIndexes(model: TestSupport.recipesModel)
        #expect(!indexes.text.contains { $0.field == "notes" })
        #expect(indexes.text.contains { $0.field == "overview" })
    }

    /// Sets the note's encrypted `secret` (and, when given, its `title`) in one save.
    static func editNote(_ stack: DocumentStack, id: String, secret: String, title: String? = nil) throws {
        let ctx = stack.context()
        let note = try ctx.existingObject(with: ObjectID(entityName: "Note", referenceString: id))
        try note.setValue(.string(secret), forKey: "secret")
        if let title { try note.setValue(.string(title), forKey: "title") }
        try ctx.save()
    }

    /// Two replicas with the same password edit the same encrypted value; the conflict resolves
    /// by policy in a store instance that was never given the password, the chosen ciphertext
    /// is kept byte for byte, and it still decrypts to that replica's text. `local` prefers
    /// this replica's leaf the way RecipesKit's `--prefer local` does (a custom policy naming
    /// the revision), since a fresh instance has not written either leaf itself.
    @Test(arguments: ["winner", "local"])
    func conflictsOnEncryptedValuesResolveByPolicyWithoutThePassword(prefer: String) throws {
        let localDir = try TemporaryDirectory(), remoteDir = try TemporaryDirectory()
        let id: String
        do {
            let local = try DocumentStack(model: Self.model, directory: localDir)
            let remote = try DocumentStack(model: Self.model, directory: remoteDir)
            try local.store.unlock(password: "shared")
            try remote.store.unlock(password: "shared")
            id = try Self.insertNote(local, title: "seed", secret: "first")
            try TestSupport.replicate(id, from: local.store.documentStore, to: remote.store.documentStore)
            try Self.editNote(remote, id: id, secret: "remote text")
            try Self.editNote(local, id: id, secret: "local text", title: "local title")
            try TestSupport.replicate(id, from: remote.store.documentStore, to: local.store.documentStore)
        }
        // What each side wrote, as ciphertext, before anything is resolved.
        let resolver = try DocumentStack(model: Self.model, directory: localDir)
        let documents = resolver.store.documentStore
        let leaves = try documents.leafRevisions(id: id).filter { !$0.deleted }
        #expect(leaves.count == 2)
        let side = { (body: JSONObject) in body["title"]?.stringValue == "local title" ? "local" : "remote" }
        let ciphertexts = Dictionary(uniqueKeysWithValues: try leaves.map { (side($0.body), try #require($0.body["secret"]?.stringValue)) })
        let localRev = try #require(leaves.first { side($0.body) == "local" }).rev
        let winner = side(try #require(try documents.get(id: id)).body)

        let chosen = prefer == "local" ? "local" : winner
        let policy: ReplicaMergePolicy = prefer == "local"
            ? .custom { _ in .prefer(RowVersion(localRev.description)) }
            : .winnerTrumps
        let resolved = try resolver.store.resolveReplicaConflicts(policy: policy)
        #expect(resolved.map(\.referenceString) == [id])
        #expect(try documents.conflicts(id: id).isEmpty)
        let merged = try #require(try documents.get(id: id)).body
        #expect(merged["secret"]?.stringValue == ciphertexts[chosen], "the ciphertext is carried over, not re-encrypted")
        #expect(merged["title"] == "local title", "the title only this replica changed is kept")

        // Given the password, the merged note reads the chosen replica's text.
        let reader = try DocumentStack(model: Self.model, directory: localDir)
        try reader.store.unlock(password: "shared")
        let context = reader.context()
        let note = try context.existingObject(with: ObjectID(entityName: "Note", referenceString: id))
        #expect(try note.string("secret") == "\(chosen) text")
    }

    @Test func rekeyReencryptsEveryValueInOneWrite() throws {
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: Self.model, directory: dir)
        try stack.store.unlock(password: "old")
        let ids = try (0..<5).map { try Self.insertNote(stack, title: "n\($0)", secret: "secret \($0)") }
        _ = try Self.insertNote(stack, title: "empty", secret: nil)
        let sequence = try stack.store.documentStore.lastSequence
        #expect(throws: EncryptedAttributeError.wrongPassword) { try stack.store.rekey(from: "wrong", to: "new") }
        #expect(try stack.store.documentStore.lastSequence == sequence)
        #expect(try stack.store.rekey(from: "old", to: "new") == 5)
        // One write: every re-encrypted document is one change in the feed.
        #expect(try stack.store.documentStore.lastSequence == sequence + 5)
        let fresh = try DocumentStack(model: Self.model, directory: dir)
        #expect(throws: EncryptedAttributeError.wrongPassword) { try fresh.store.unlock(password: "old") }
        try fresh.store.unlock(password: "new")
        let ctx = fresh.context()
        for (n, id) in ids.enumerated() {
            #expect(try ctx.existingObject(with: ObjectID(entityName: "Note", referenceString: id)).string("secret") == "secret \(n)")
        }
    }
}

/// Stores whose notes are under two passwords, as a rekey cut short left them before rekeys
/// were one transaction: the key record held both passwords, and values were then written
/// under either.
@Suite("Rekey repairs a store left under two passwords")
struct MixedPasswordRepairTests {
    /// A store with three values under "A", a key record opened by both "B" and "A", and one
    /// value written under "B"; returns the directory and the values by document ID.
    static func mixedStore() throws -> (TemporaryDirectory, [String: String]) {
        let dir = try TemporaryDirectory()
        var values: [String: String] = [:]
        do {
            let stack = try DocumentStack(model: EncryptedAttributeTests.model, directory: dir)
            try stack.store.unlock(password: "A")
            for n in 0..<3 {
                values[try EncryptedAttributeTests.insertNote(stack, title: "a\(n)", secret: "under A \(n)")] = "under A \(n)"
            }
            let (entryB, _) = try EncryptionKeyRecord.newEntry(password: "B")
            let record = try #require(try EncryptionKeyRecord.read(from: stack.store.documentStore))
            try EncryptionKeyRecord(entries: [entryB] + record.entries).write(to: stack.store.documentStore)
        }
        let stack = try DocumentStack(model: EncryptedAttributeTests.model, directory: dir)
        try stack.store.unlock(password: "B")
        values[try EncryptedAttributeTests.insertNote(stack, title: "b", secret: "under B")] = "under B"
        return (dir, values)
    }

    static func readAll(_ dir: TemporaryDirectory, password: String, _ values: [String: String]) throws {
        let stack = try DocumentStack(model: EncryptedAttributeTests.model, directory: dir)
        try stack.store.unlock(password: password)
        let ctx = stack.context()
        for (id, value) in values {
            #expect(try ctx.existingObject(with: ObjectID(entityName: "Note", referenceString: id)).string("secret") == value)
        }
    }

    @Test(arguments: [("A", "B"), ("B", "A")])
    func aRekeyGivenBothPasswordsLeavesEveryValueUnderTheNewOneAlone(old: String, new: String) throws {
        let (dir, values) = try Self.mixedStore()
        let stack = try DocumentStack(model: EncryptedAttributeTests.model, directory: dir)
        #expect(try stack.store.rekey(from: old, to: new) == 4)
        let record = try #require(try EncryptionKeyRecord.read(from: stack.store.documentStore))
        #expect(record.entries.count == 1)
        let fresh = try DocumentStack(model: EncryptedAttributeTests.model, directory: dir)
        #expect(throws: EncryptedAttributeError.wrongPassword) { try fresh.store.unlock(password: old) }
        try Self.readAll(dir, password: new, values)
    }

    @Test func aRekeyWithAThirdPasswordReadsNeitherAndWritesNothing() throws {
        let (dir, _) = try Self.mixedStore()
        let stack = try DocumentStack(model: EncryptedAttributeTests.model, directory: dir)
        let sequence = try stack.store.documentStore.lastSequence
        #expect(throws: EncryptedAttributeError.self) { try stack.store.rekey(from: "A", to: "C") }
        #expect(try stack.store.documentStore.lastSequence == sequence)
        #expect(try EncryptionKeyRecord.read(from: stack.store.documentStore)?.entries.count == 2)
    }

    @Test func theSamePasswordTwiceChangesNothing() throws {
        let dir = try TemporaryDirectory()
        let stack = try DocumentStack(model: EncryptedAttributeTests.model, directory: dir)
        try stack.store.unlock(password: "A")
        _ = try EncryptedAttributeTests.insertNote(stack, title: "a", secret: "kept")
        let sequence = try stack.store.documentStore.lastSequence
        #expect(try stack.store.rekey(from: "A", to: "A") == 0)
        #expect(try stack.store.documentStore.lastSequence == sequence)
        #expect(throws: EncryptedAttributeError.wrongPassword) { try stack.store.rekey(from: "B", to: "B") }
    }
}
