import DocumentStore
import Foundation
import ObjectGraph
import Testing
@testable import DocumentIncrementalStore

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

    private func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Kills the child once the save's transaction has spilled `growth` bytes into the WAL
    /// file, i.e. in the middle of the SQLite transaction.
    @Test(arguments: [100_000, 1_000_000, 4_000_000])
    func killedDuringSaveLeavesAllOrNothing(growth: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.path("crash.sqlite")
        let child = Process()
        child.executableURL = try Self.childExecutable()
        child.arguments = [path, TestSupport.packageRoot.appendingPathComponent("Schemas/Recipes.xcdatamodeld").path, "1500"]
        let pipe = Pipe()
        child.standardOutput = pipe
        try child.run()
        // Wait until the child starts saving.
        var output = Data()
        while !String(decoding: output, as: UTF8.self).contains("saving") {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            output.append(chunk)
        }
        #expect(String(decoding: output, as: UTF8.self).contains("saving"))
        let wal = path + "-wal"
        let start = fileSize(wal)
        let deadline = Date().addingTimeInterval(60)
        while child.isRunning && fileSize(wal) < start + growth && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.002)
        }
        let finishedBeforeKill = !child.isRunning
        kill(child.processIdentifier, SIGKILL)
        child.waitUntilExit()
        let count = try recipeCount(path)
        #expect(count == 0 || count == 1500, "found \(count) recipes after the kill")
        if finishedBeforeKill { #expect(count == 1500) }
        // The store still opens and takes new saves.
        let stack = try DocumentStack(directory: dir, file: "crash.sqlite")
        let ctx = stack.context()
        try ctx.insert("Recipe").setValue(.string("After crash"), forKey: "name")
        try ctx.save()
        #expect(try ctx.count(for: FetchRequest(entityName: "Recipe")) == count + 1)
    }
}
