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

    /// Runs `work` on a new thread and waits for its result without blocking the caller's.
    private static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    private static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Kills the child once the save's transaction has spilled `growth` bytes into the WAL
    /// file, i.e. in the middle of the SQLite transaction.
    @Test(arguments: [100_000, 1_000_000, 4_000_000])
    func killedDuringSaveLeavesAllOrNothing(growth: Int) async throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("crash.sqlite")
        let child = Process()
        child.executableURL = try Self.childExecutable()
        child.arguments = [path, TestSupport.packageRoot.appendingPathComponent("Schemas/Recipes.xcdatamodeld").path, "1500"]
        // The wait runs on a thread of its own: it polls the WAL every 2 ms to kill the child
        // mid-transaction, and must neither lag behind a busy pool nor hold one of its threads.
        let outputPath = dir.path("child.out")
        try #require(FileManager.default.createFile(atPath: outputPath, contents: nil))
        child.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        try child.run()
        let startedSaving = await Self.onOwnThread {
            func saving() -> Bool { ((try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "").contains("saving") }
            let deadline = Date().addingTimeInterval(60)
            pollUntil(deadline: deadline) { saving() || !child.isRunning }
            let wal = path + "-wal"
            let start = Self.fileSize(wal)
            pollUntil(deadline: deadline) { !child.isRunning || Self.fileSize(wal) >= start + growth }
            return saving()
        }
        #expect(startedSaving)
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
