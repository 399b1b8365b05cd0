import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("recipes sync through recipes serve", .serialized)
struct ServedSyncTests {
    @Test("two stores seeding at once through one server write one copy of each sample and no conflict")
    func seedingTogether() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { server in
            let a = ["--store", sandbox.path("a.sqlite"), "--remote", server.url()]
            let b = ["--store", sandbox.path("b.sqlite"), "--remote", server.url()]
            let first = try await sandbox.start(["list", "--json"] + a)
            let second = try await sandbox.start(["list", "--json"] + b)
            let results = [try await first.finish(), try await second.finish()]
            for result in results {
                #expect(result.status == 0, "\(result)")
                #expect((try result.json() as? [[String: Any]])?.count == 14, "\(result)")
            }
            #expect(try await sandbox.run(["sync"] + a).status == 0)
            #expect(try await sandbox.run(["sync"] + b).status == 0)
            let statusA = try #require(try await sandbox.run(["status", "--json"] + a).json() as? [String: Any])
            let statusB = try #require(try await sandbox.run(["status", "--json"] + b).json() as? [String: Any])
            for status in [statusA, statusB] {
                #expect(status["conflicts"] as? Int == 0)
                #expect((status["counts"] as? [String: Any])?["recipes"] as? Int == 14)
            }
            let info = try await server.get("/recipes")
            #expect(info["doc_count"] as? Int == statusA["documents"] as? Int)
            // A third machine sees one copy, without conflicts.
            let c = ["--store", sandbox.path("c.sqlite"), "--remote", server.url()]
            let list = try #require(try await sandbox.run(["list", "--json"] + c).json() as? [[String: Any]])
            #expect(list.count == 14)
            #expect((try await sandbox.run(["status", "--json"] + c).json() as? [String: Any])?["conflicts"] as? Int == 0)
        }
    }

    @Test("a sample deleted on one machine stays deleted after restarts and syncs, and is not seeded elsewhere")
    func deletedSampleStaysDeleted() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { server in
            let a = ["--store", sandbox.path("a.sqlite"), "--remote", server.url()]
            #expect((try await sandbox.run(["list", "--json"] + a).json() as? [[String: Any]])?.count == 14)
            #expect(try await sandbox.run(["delete", "Banana Bread"] + a).status == 0)
            #expect(try await sandbox.run(["sync"] + a).status == 0)
            for _ in 0..<2 {
                let names = try #require(try await sandbox.run(["list", "--json"] + a).json() as? [[String: Any]]).compactMap { $0["name"] as? String }
                #expect(names.count == 13 && !names.contains("Banana Bread"))
                #expect(try await sandbox.run(["sync"] + a).status == 0)
            }
            let b = ["--store", sandbox.path("b.sqlite"), "--remote", server.url()]
            let names = try #require(try await sandbox.run(["list", "--json"] + b).json() as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(names.count == 13 && !names.contains("Banana Bread"))
            #expect(try await sandbox.run(["sync"] + b).status == 0)
            #expect((try await sandbox.run(["list", "--json"] + a).json() as? [[String: Any]])?.count == 13)
        }
    }

    @Test("importing the Core Data fixture and pushing leaves exactly 51 documents on the server")
    func fixturePush() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { server in
            let fixture = sandbox.path("Recipes.sqlite")
            try FileManager.default.copyItem(atPath: TestFixtures.appleRecipesStore.path, toPath: fixture)
            let s = ["--store", sandbox.path("s.sqlite"), "--remote", server.url("fixture")]
            let imported = try await sandbox.run(["import", fixture] + s)
            #expect(imported.status == 0, "\(imported)")
            let pushed = try await sandbox.run(["sync", "--push-only", "--json"] + s)
            #expect(pushed.status == 0, "\(pushed)")
            let info = try await server.get("/fixture")
            #expect(info["doc_count"] as? Int == 51)
            #expect(try await sandbox.run(["sync"] + s).status == 0)
            #expect(try await server.get("/fixture")["doc_count"] as? Int == 51)
        }
    }

    @Test("a design document on the server is pulled and neither list, show, status nor sync trips over it")
    func designDocumentIsCarriedQuietly() async throws {
        let sandbox = try Sandbox()
        try await withServer(ServedDatabase(in: sandbox)) { server in
            let a = ["--store", sandbox.path("a.sqlite"), "--remote", server.url()]
            #expect((try await sandbox.run(["list", "--json"] + a).json() as? [[String: Any]])?.count == 14)
            #expect(try await sandbox.run(["sync"] + a).status == 0)
            var request = server.request("/recipes/_design/app")
            request.httpMethod = "PUT"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"language":"javascript","views":{"byName":{"map":"function(doc){ emit(doc.name, null) }"}}}"#.utf8)
            let (_, response) = try await URLSession.shared.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 201)

            let b = ["--store", sandbox.path("b.sqlite"), "--remote", server.url()]
            for machine in [a, b] {
                let synced = try await sandbox.run(["sync", "--json"] + machine)
                #expect(synced.status == 0, "\(synced)")
                let report = try #require(try synced.json() as? [String: Any])
                #expect(report["result"] as? String == "succeeded" && report["refused"] as? Int == 0, "\(synced)")
                let list = try #require(try await sandbox.run(["list", "--json"] + machine).json() as? [[String: Any]])
                #expect(list.count == 14)
                #expect(try await sandbox.run(["show", "Banana Bread"] + machine).status == 0)
                let status = try #require(try await sandbox.run(["status", "--json"] + machine).json() as? [String: Any])
                #expect((status["counts"] as? [String: Any])?["recipes"] as? Int == 14)
                #expect(status["conflicts"] as? Int == 0 && status["pendingChanges"] as? Int == 0)
                #expect(status["documents"] as? Int == (try await server.get("/recipes"))["doc_count"] as? Int)
            }
            // The design document went round unchanged.
            let design = try await server.get("/recipes/_design/app")
            #expect(design["language"] as? String == "javascript")
            #expect((design["_rev"] as? String)?.hasPrefix("1-") == true)
        }
    }
}
