import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore
import TestSupport
import DocumentFormat

@Suite("Crash safety of saves")
struct CrashSafetyTests {
    /// The helper executable built next to the test bundle.
    private static func childExecutable() throws -> URL {
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("dis-save-child"))
            dir = dir.deletingLastPathComponent()
        }
        candidates.append(TestSupport.packageRoot.appendingPathComponent(".build/debug/dis-save-child"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "dis-save-child (looked in \(candidates.map(\.path)))"])
        }
        return found
    }

    private func recipeCount(_ path: String) throws -> Int {
        let store = try DocumentStore(path: path)
        defer { try? store.close() }
        return try store.count(selector: ["CDTISEntityName": "Recipe"])
    }

    /// A child that saves 1,500 recipes with their ingredients, killed with SIGKILL either
    /// inside the save's open transaction (it says it holds there and waits: a handshake, not a
    /// race) or after the save committed. The store holds none of them or all of them.
    @Test(arguments: [true, false])
    func killedDuringSaveLeavesAllOrNothing(midTransaction: Bool) async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("crash.sqlite")
        let child = try await RunningProcess.start(
            try Self.childExecutable(),
            arguments: [path, TestSupport.packageRoot.appendingPathComponent("Schemas/Recipes.xcdatamodeld").path, "1500"]
                + (midTransaction ? ["--hold"] : []))
        let awaited = midTransaction ? "holding\n" : "saved\n"
        let reached = await child.waitForOutput(containing: awaited, timeout: 300)
        try #require(reached != nil, "waited for dis-save-child to print \(awaited.debugDescription); it printed \(child.stdout.debugDescription), stderr \(child.stderr.debugDescription), \(child.child.termination.map { "ended with \($0)" } ?? "still running")")
        try await child.child.stop(SIGKILL)
        let expected = midTransaction ? 0 : 1500
        let count = try recipeCount(path)
        #expect(count == expected, "found \(count) recipes after the kill, expected \(expected)")
        // The store still opens and takes new saves.
        let stack = try DocumentStack(directory: dir, file: "crash.sqlite")
        let ctx = stack.context()
        try ctx.insert("Recipe").setValue(.string("After crash"), forKey: "name")
        try ctx.save()
        #expect(try ctx.count(for: FetchRequest(entityName: "Recipe")) == count + 1)
    }
}
