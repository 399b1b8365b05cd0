import GRDB

extension DocumentStoreWriting {
    /// Stores `value` as the setting `key`, replacing any earlier value.
    public func setSetting(_ key: String, to value: String) throws {
        try connection.writingDatabase { db in
            try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", arguments: ["setting." + key, value])
        }
    }
}

extension DocumentStoreReading {
    /// A setting a caller stored with ``DocumentStoreWriting/setSetting(_:to:)`` (for example the `q` a served
    /// database was created with), `nil` when none was. Kept in the store file, so it lasts
    /// as long as the database; settings never replicate.
    public func setting(_ key: String) throws -> String? {
        try connection.reading { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: ["setting." + key]) }
    }
}

