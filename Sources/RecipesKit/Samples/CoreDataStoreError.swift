import Foundation

/// Why a Core Data SQLite store could not be read as a sample set.
///
/// Row-level cases name the table and the row's `Z_PK`, so a damaged store can be fixed or
/// reported precisely; nothing is imported from a store that has any of these problems.
public enum CoreDataStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is missing, cannot be copied, or is not an SQLite database.
    case unreadableStore(path: String, reason: String)
    /// The database is SQLite but not a Core Data store of the recipes model (a table,
    /// column or entity is missing).
    case notARecipesStore(path: String, reason: String)
    /// One row holds a value the recipes model does not allow.
    case malformedRow(path: String, table: String, primaryKey: Int64, column: String, problem: String)
    /// A to-one relationship column names a row that does not exist.
    case danglingReference(path: String, table: String, primaryKey: Int64, column: String, targetTable: String, targetKey: Int64)
    /// The two sides of a relationship disagree (an image's `ZRECIPE` and its recipe's
    /// `ZIMAGE` do not point at each other).
    case brokenInverse(path: String, table: String, primaryKey: Int64, column: String, problem: String)

    /// The store file the error is about.
    public var path: String {
        switch self {
        case .unreadableStore(let path, _), .notARecipesStore(let path, _),
             .malformedRow(let path, _, _, _, _), .danglingReference(let path, _, _, _, _, _),
             .brokenInverse(let path, _, _, _, _):
            path
        }
    }

    /// The table and `Z_PK` of the offending row, for the row-level cases.
    public var row: (table: String, primaryKey: Int64)? {
        switch self {
        case .malformedRow(_, let table, let key, _, _), .danglingReference(_, let table, let key, _, _, _),
             .brokenInverse(_, let table, let key, _, _):
            (table, key)
        case .unreadableStore, .notARecipesStore:
            nil
        }
    }

    /// One line: the file, the table and row when known, the cause and what to do.
    public var description: String {
        let file = URL(fileURLWithPath: path).lastPathComponent
        switch self {
        case .unreadableStore(_, let reason):
            return "\(file): cannot open the Core Data store: \(reason)"
        case .notARecipesStore(_, let reason):
            return "\(file): not a Core Data store of the recipes model: \(reason)"
        case .malformedRow(_, let table, let key, let column, let problem):
            return "\(file): \(table) row Z_PK=\(key): \(column) \(problem); fix or delete that row and import again"
        case .danglingReference(_, let table, let key, let column, let targetTable, let targetKey):
            return "\(file): \(table) row Z_PK=\(key): \(column) refers to \(targetTable) Z_PK=\(targetKey), which does not exist; "
                + "the store is damaged: set \(column) to NULL or restore the missing row"
        case .brokenInverse(_, let table, let key, let column, let problem):
            return "\(file): \(table) row Z_PK=\(key): \(column) \(problem); the relationship's two sides must point at each other"
        }
    }
}
