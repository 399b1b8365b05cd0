import DocumentStore
import Foundation
@testable import Replication
import DocumentFormat

/// Paths relative to the package, never absolute.
enum PackagePaths {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return url
    }()

    static var recordings: URL {
        packageRoot.appendingPathComponent("Tests/Fixtures/couchdb-3.4.3")
    }
}

/// A recipe-shaped document body.
func recipeBody(_ index: Int, name: String? = nil) -> JSONObject {
    [
        "CDTISEntityName": "Recipe",
        "CDTISObjectVersion": "1",
        "name": .string(name ?? "Recipe \(index)"),
        "overview": .string("A recipe numbered \(index)"),
        "prepTime": "30 minutes",
        "ingredients": .array([.string("CDTIS-Ingredient-\(index)-a"), .string("CDTIS-Ingredient-\(index)-b")]),
    ]
}

/// Every document's leaf revisions and winner body, for comparing replicas.
struct StoreSnapshot: Equatable {
    var leaves: [String: [String]]
    var winners: [String: JSONObject]
    var deleted: Set<String>

    init(_ store: DocumentStore) throws {
        leaves = [:]
        winners = [:]
        deleted = []
        try ChangesFeed.forEachChange(in: store) { change in
            leaves[change.id] = change.revisions.map(\.description).sorted()
            if change.deleted { deleted.insert(change.id) }
            if let winner = try store.get(id: change.id) { winners[change.id] = winner.body }
        }
    }
}

/// Deterministic pseudo-random bytes.
func testBytes(_ count: Int, seed: UInt64) -> Data {
    var state = seed &* 6364136223846793005 &+ 1442695040888963407
    var bytes = [UInt8](repeating: 0, count: count)
    for index in 0..<count {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
}

/// Collects progress reports.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [ReplicationProgress] = []
    func record(_ progress: ReplicationProgress) { lock.withLock { entries.append(progress) } }
    var all: [ReplicationProgress] { lock.withLock { entries } }
}
