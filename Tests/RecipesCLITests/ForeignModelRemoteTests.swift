import DocumentStore
import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import InteropSupport
import Testing
import DocumentFormat

/// A remote database where another app wrote its `CDTISMetaData` for a different model: the
/// pull refuses it before anything of it is stored, says why, and the store keeps opening
/// (it used to store the document on the first command, then refuse to open ever after).
@Suite("recipes with a remote of another app's model")
struct ForeignModelRemoteTests {
    /// The original app's metadata with `Recipe.prepTime` stored as a number.
    static var incompatibleMetadata: JSONValue {
        var body = OriginalAppMetadata.body
        var model = body["objectModel"]?.objectValue ?? [:]
        var recipe = model["Recipe"]?.objectValue ?? [:]
        var properties = recipe["properties"]?.objectValue ?? [:]
        properties["prepTime"] = ["typeName": "int32", "versionHash": "00"]
        recipe["properties"] = .object(properties)
        model["Recipe"] = .object(recipe)
        body["objectModel"] = .object(model)
        body["_id"] = "CDTISMetaData"
        body["_rev"] = .string(OriginalAppMetadata.rev.description)
        return .object(body)
    }

    @Test("the pull refuses another app's model before storing it; every command still opens the store")
    func foreignModelIsRefusedBeforeItIsStored() async throws {
        let sandbox = try Sandbox("foreign-model")
        try await withServer(ServedDatabase(in: sandbox)) { server in
            for (method, path, body) in [("PUT", "/recipes", JSONValue.null),
                                         ("POST", "/recipes/_bulk_docs", ["new_edits": false, "docs": [Self.incompatibleMetadata]])] {
                var request = server.request(path)
                request.httpMethod = method
                if body != .null {
                    request.httpBody = Data(JSONWriter.canonical.string(body).utf8)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let (_, response) = try await URLSession.shared.data(for: request)
                #expect((response as? HTTPURLResponse)?.statusCode == 201, "\(method) \(path)")
            }
            let machine = ["--store", sandbox.path("a.sqlite"), "--remote", server.url()]
            let first = try await sandbox.run(["list", "--json"] + machine)
            #expect(first.status == 0, "\(first)")
            #expect(first.stderr.contains("different model"), "\(first.stderr)")
            let synced = try await sandbox.run(["sync"] + machine)
            #expect(synced.status == 1, "\(synced)")
            #expect(synced.stderr.contains("the remote database holds another app's data for a different model")
                    && synced.stderr.contains("prepTime"), "\(synced.stderr)")
            for command in [["list"], ["status"], ["add", "--name", "Still Here"]] {
                let result = try await sandbox.run(command + machine)
                #expect(result.status == 0, "\(command): \(result)")
            }
            let store = try DocumentStore(path: sandbox.path("a.sqlite"))
            let metadata = try store.leafRevisions(id: "CDTISMetaData")
            #expect(!metadata.contains { $0.rev == OriginalAppMetadata.rev }, "the other app's document was stored: \(metadata)")
        }
    }
}
