import DocumentStore
import Foundation
import ObjectGraph
import PasswordEncryption
import DocumentFormat

extension DocumentIncrementalStore {
    /// Whether ``unlock(password:)`` accepted a password, so encrypted attributes can be read
    /// and written.
    public var isUnlocked: Bool { locked { encryption != nil } }

    /// Gives the store the password for attributes the model marks encrypted (userInfo
    /// `encrypted = YES`). The first password a store is given gets a fresh salt pair and a
    /// key-check value in a local document; later, a password that does not open that check
    /// is refused before any data is read. Keys are derived once per process.
    /// - Throws: ``EncryptedAttributeError/wrongPassword``, or a datastore failure.
    public func unlock(password: String) throws {
        try locked {
            do {
                let encryptor: PasswordEncryptor
                if let record = try EncryptionKeyRecord.read(from: reader) {
                    guard let found = record.encryptor(for: password) else { throw EncryptedAttributeError.wrongPassword }
                    encryptor = found
                } else {
                    let (entry, fresh) = try EncryptionKeyRecord.newEntry(password: password)
                    // A store without a record may still hold values (pulled from replicas,
                    // which may each have used another password): the first password it is
                    // given must open at least one of them.
                    let samples = try encryptedValueSamples()
                    if !samples.isEmpty, !samples.contains(where: { (try? fresh.decrypt($0)) != nil }) {
                        throw EncryptedAttributeError.wrongPassword
                    }
                    try EncryptionKeyRecord(entries: [entry]).write(to: writer())
                    encryptor = fresh
                }
                encryption = AttributeEncryption(encryptor: encryptor)
                codec?.encryption = encryption
            } catch let e as DocumentStoreError {
                throw DocumentIncrementalStoreError.datastore(e)
            }
        }
    }

    /// Stored encrypted values to check a first password against: one message per distinct
    /// salt pair (a salt pair stands for one password on one replica) among the first
    /// ``passwordCheckScanLimit`` values of each encrypted attribute, at most
    /// ``passwordCheckSampleLimit`` of them, since each costs a key derivation.
    private func encryptedValueSamples() throws -> [Data] {
        guard let model else { return [] }
        var samples: [Data] = []
        var seenSalts = Set<Data>()
        for entity in model.entities where !entity.isAbstract {
            for attribute in entity.attributes where attribute.isEncrypted {
                let selector: JSONValue = ["$and": [Self.entitySelector([entity.name]), .object([attribute.name: ["$gt": ""]])]]
                for revision in try reader.find(Query(selector: selector, limit: Self.passwordCheckScanLimit)) {
                    guard let text = revision.body[attribute.name]?.stringValue, let data = Data(base64Encoded: text),
                          data.count > 18 else { continue }
                    // Bytes 2..<18 of a v3 password message are its encryption and HMAC salts.
                    guard seenSalts.insert(data.subdata(in: 2..<18)).inserted else { continue }
                    samples.append(data)
                    if samples.count == Self.passwordCheckSampleLimit { return samples }
                }
            }
        }
        return samples
    }

    /// How many stored values per encrypted attribute a first password is checked against.
    static let passwordCheckScanLimit = 1_000

    /// At most this many differently salted values are tried with a first password.
    static let passwordCheckSampleLimit = 8

    /// Re-encrypts every encrypted value of the store from `oldPassword` to `newPassword`,
    /// and replaces the key record with the new password's alone, in one datastore
    /// transaction: the values and the record change together or not at all, so whenever the
    /// process stops, exactly one of the two passwords opens the store and every value.
    ///
    /// A value already under `newPassword` is read with it: a store left with values under
    /// both passwords (by a rekey cut short before rekeys were one transaction, after which
    /// the record held both and new values were written under either) is repaired by a
    /// rekey given both. The same password twice changes nothing. The store is unlocked with
    /// the new password afterwards. Returns the number of values re-encrypted.
    /// - Throws: ``EncryptedAttributeError/wrongPassword`` when `oldPassword` does not open
    ///   the store, ``EncryptedAttributeError/undecryptable(documentID:attribute:reason:)``
    ///   for a value neither password can read (nothing is written then).
    @discardableResult
    public func rekey(from oldPassword: String, to newPassword: String) throws -> Int {
        try locked {
            guard let model else { throw IncrementalStoreError.notLoaded }
            do {
                let record = try EncryptionKeyRecord.read(from: reader)
                let old: PasswordEncryptor
                if let record {
                    guard let found = record.encryptor(for: oldPassword) else { throw EncryptedAttributeError.wrongPassword }
                    old = found
                } else {
                    old = PasswordEncryptor(password: oldPassword)
                }
                if oldPassword == newPassword {
                    if record != nil {
                        encryption = AttributeEncryption(encryptor: old)
                        codec?.encryption = encryption
                    }
                    return 0
                }
                let oldEncryption = AttributeEncryption(encryptor: old)
                let (entry, fresh) = try EncryptionKeyRecord.newEntry(password: newPassword)
                let newEncryption = AttributeEncryption(encryptor: fresh)
                var operations: [DocumentStore.WriteOperation] = []
                var count = 0
                for entity in model.entities where !entity.isAbstract {
                    let encrypted = entity.attributes.filter(\.isEncrypted)
                    if encrypted.isEmpty { continue }
                    for revision in try reader.find(Query(selector: Self.entitySelector([entity.name]))) {
                        var body = revision.body
                        var changed = false
                        for attribute in encrypted {
                            guard let stored = body[attribute.name]?.stringValue else { continue }
                            let value: AttributeValue
                            do {
                                value = try AttributeEncryption.decrypt(stored, attribute: attribute, documentID: revision.id, with: oldEncryption)
                            } catch let refused as EncryptedAttributeError {
                                // Already under the new password (a store a cut-short rekey
                                // left mixed), or readable by neither: then the old error.
                                guard let already = try? AttributeEncryption.decrypt(stored, attribute: attribute, documentID: revision.id,
                                                                                     with: newEncryption) else { throw refused }
                                value = already
                            }
                            body[attribute.name] = try newEncryption.encrypt(value, attribute: attribute, documentID: revision.id)
                            changed = true
                            count += 1
                        }
                        guard changed else { continue }
                        let version = body[DocumentLayout.objectVersionKey]?.stringValue.flatMap { Int($0) } ?? 0
                        body[DocumentLayout.objectVersionKey] = .string(String(version + 1))
                        operations.append(.update(id: revision.id, parent: revision.rev, body: body, attachments: []))
                    }
                }
                let written = try documentStore.inTransaction { transaction in
                    try EncryptionKeyRecord(entries: [entry]).write(to: transaction)
                    return try transaction.write(operations)
                }
                for revision in written {
                    rememberOwn(revision.rev, of: revision.id)
                    toManyCache[revision.id] = nil
                }
                encryption = newEncryption
                codec?.encryption = newEncryption
                return count
            } catch let e as DocumentStoreError {
                throw DocumentIncrementalStoreError.datastore(e)
            }
        }
    }

    /// Refuses a fetch that filters (`predicate`) or sorts (`sorts`, key paths) on an
    /// encrypted attribute, following key paths through relationships.
    /// - Throws: ``EncryptedAttributeError/notQueryable(entity:attribute:use:)``.
    static func refuseEncrypted(_ predicate: ObjectPredicate?, sorts: [String], entities: [EntityDescription],
                                model: ObjectModel) throws {
        guard model.hasEncryptedAttributes else { return }
        func check(_ path: String, _ use: String) throws {
            var current = entities
            for component in path.split(separator: ".").map(String.init) {
                if let entity = current.first(where: { $0.attribute(named: component)?.isEncrypted == true }) {
                    throw EncryptedAttributeError.notQueryable(entity: entity.name, attribute: component, use: use)
                }
                let destinations = current.compactMap { $0.relationship(named: component)?.destinationEntityName }
                    .compactMap { model.entity(named: $0) }
                if destinations.isEmpty { return }
                current = destinations.flatMap { model.entityAndSubentities(of: $0) }
            }
        }
        for path in predicate?.keyPaths.sorted() ?? [] { try check(path, "filter") }
        for path in sorts { try check(path, "sort") }
    }
}
