import Foundation
import Testing
@testable import DocumentStore
import TestSupport
import DocumentFormat

@Suite struct ConcurrencyTests {
    @Test func twoWritersRacingOnOneDocument() async throws {
        let (store, directory) = try makeStore()
        _ = directory
        let base = try store.create(id: "shared", body: ["v": 0])
        let outcomes = await withTaskGroup(of: Result<RevisionID, DocumentStoreError>.self) { group in
            for writer in 1...2 {
                group.addTask {
                    do {
                        return .success(try store.update(id: "shared", parent: base.rev, body: ["v": .int(Int64(writer))]).rev)
                    } catch let error as DocumentStoreError {
                        return .failure(error)
                    } catch {
                        return .failure(.storage("\(error)"))
                    }
                }
            }
            var all: [Result<RevisionID, DocumentStoreError>] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        let winners = outcomes.compactMap { try? $0.get() }
        let failures = outcomes.compactMap { if case .failure(let e) = $0 { e } else { nil } }
        #expect(winners.count == 1)
        #expect(failures == [.conflict(id: "shared")])
        #expect(try store.leafRevisions(id: "shared").map(\.rev) == winners)
        #expect(try store.conflicts(id: "shared").isEmpty)
        #expect(try store.history(id: "shared", rev: winners[0]) == [winners[0], base.rev])
    }

    @Test func retryingWritersNeverLoseAnUpdate() async throws {
        let (store, directory) = try makeStore()
        _ = directory
        try store.create(id: "counter", body: ["n": 0])
        let perWriter = 25
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    var done = 0
                    while done < perWriter {
                        let current = try #require(try store.get(id: "counter"))
                        let n = current.body["n"]?.intValue ?? 0
                        do {
                            try store.update(id: "counter", parent: current.rev, body: ["n": .int(n + 1)])
                            done += 1
                        } catch DocumentStoreError.conflict {
                            continue
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let final = try #require(try store.get(id: "counter"))
        #expect(final.body["n"] == .int(Int64(2 * perWriter)))
        #expect(final.rev.generation == 2 * perWriter + 1)
        #expect(try store.leafRevisions(id: "counter").count == 1)
    }

    @Test func manyOpenersCreatingOneNewFileAtOnceAllSucceedWithOneIdentity() async throws {
        for round in 0..<5 {
            let directory = try TemporaryDirectory()
            let path = directory.path("new-\(round).sqlite")
            let identities = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<6 {
                    group.addTask { try DocumentStore(path: path).storeID }
                }
                var all: [String] = []
                for try await identity in group { all.append(identity) }
                return all
            }
            #expect(identities.count == 6)
            #expect(Set(identities).count == 1)
            #expect(identities.allSatisfy { !$0.isEmpty })
        }
    }

    @Test func twoStoreInstancesOnOneFileSerializeTheirWrites() async throws {
        let directory = try TemporaryDirectory()
        let first = try DocumentStore(path: directory.path())
        let second = try DocumentStore(path: directory.path())
        #expect(first.storeID == second.storeID)
        try first.create(id: "counter", body: ["n": 0])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [first, second] {
                group.addTask {
                    var done = 0
                    while done < 20 {
                        let current = try #require(try store.get(id: "counter"))
                        do {
                            try store.update(id: "counter", parent: current.rev,
                                             body: ["n": .int((current.body["n"]?.intValue ?? 0) + 1)])
                            done += 1
                        } catch DocumentStoreError.conflict {
                            continue
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try second.get(id: "counter")?.body["n"] == 40)
        #expect(try first.leafRevisions(id: "counter").count == 1)
    }
}
