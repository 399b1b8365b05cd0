import DocumentStore
import Foundation
import PasswordEncryption
import DocumentFormat

/// The local (never replicated) document that keeps a store's salt pairs, one per password,
/// each with a key-check value: an RNCryptor v3 message of a fixed text, so a wrong password
/// is told by one HMAC check, without reading any data.
///
/// It holds one entry: a rekey replaces it in the same transaction as the values it
/// re-encrypts. A record with several entries (left by a rekey cut short before rekeys
/// were one transaction) is still read, any of its passwords opening the store, until a
/// rekey given both passwords repairs it.
struct EncryptionKeyRecord {
    /// The local document's ID.
    static let documentID = "CDTISEncryption"
    /// The text each key-check message encrypts.
    static let checkText = Data("CDTIS encryption key check".utf8)

    /// One password's salts and key check.
    struct Entry: Equatable {
        var salts: RNCryptorSalts
        var keyCheck: Data
    }

    var entries: [Entry]

    /// Reads the record (`nil` when the store has none yet).
    static func read(from store: some DocumentStoreReading) throws -> EncryptionKeyRecord? {
        guard let body = try store.getLocal(id: documentID), let items = body["keys"]?.arrayValue else { return nil }
        var entries: [Entry] = []
        for item in items {
            guard let o = item.objectValue,
                  let e = o["encryptionSalt"]?.stringValue.flatMap({ Data(base64Encoded: $0) }),
                  let h = o["hmacSalt"]?.stringValue.flatMap({ Data(base64Encoded: $0) }),
                  let c = o["keyCheck"]?.stringValue.flatMap({ Data(base64Encoded: $0) }),
                  let salts = try? RNCryptorSalts(encryptionSalt: e, hmacSalt: h) else { continue }
            entries.append(Entry(salts: salts, keyCheck: c))
        }
        return entries.isEmpty ? nil : EncryptionKeyRecord(entries: entries)
    }

    /// Writes the record.
    func write(to store: some DocumentStoreWriting) throws {
        let keys: [JSONValue] = entries.map { entry in
            .object(["encryptionSalt": .string(entry.salts.encryptionSalt.base64EncodedString()),
                     "hmacSalt": .string(entry.salts.hmacSalt.base64EncodedString()),
                     "keyCheck": .string(entry.keyCheck.base64EncodedString())])
        }
        try store.putLocal(id: Self.documentID, body: ["format": .string("RNCryptor v3 password"), "keys": .array(keys)])
    }

    /// A new entry for `password` with fresh salts.
    static func newEntry(password: String) throws -> (Entry, PasswordEncryptor) {
        let encryptor = PasswordEncryptor(password: password)
        return (Entry(salts: encryptor.salts, keyCheck: try encryptor.encrypt(checkText)), encryptor)
    }

    /// The encryptor for the first entry `password` opens, or `nil` when it opens none.
    func encryptor(for password: String) -> PasswordEncryptor? {
        for entry in entries {
            let encryptor = PasswordEncryptor(password: password, salts: entry.salts)
            if (try? encryptor.decrypt(entry.keyCheck)) == Self.checkText { return encryptor }
        }
        return nil
    }
}
