import ArgumentParser
import Foundation
import ObjectGraph
import RecipesKit
#if canImport(Glibc)
import Glibc
#endif

/// The typed half of `recipes-bench graph`: the generated entity types' properties against
/// the string-keyed `ManagedObject` API on the same objects, and a typed observer
/// (`ObjectContext.observe(_:)` of a `FetchDescriptor`) of a store that another process,
/// `recipes add`, saves into.
extension GraphBenchmark {
    /// Median milliseconds of one pass over the objects, each way.
    struct PropertyAccess {
        var objects: Int
        var typedReadMs: Double
        var stringReadMs: Double
        var typedWriteMs: Double
        var stringWriteMs: Double
    }

    /// Reads (`name`, `overview`, `type?.name`) and writes (`overview`, `prepTime`) the first
    /// `propertyObjects` recipes by name through `Recipe`'s properties and through
    /// `value(forKey:as:)` / `setValue(_:forKey:)`, in one context whose objects are already
    /// faulted in, the two alternated run by run (run 0 is a warm-up); each read sample is
    /// five passes over the objects, each write sample one pass writing values not written
    /// before. Both sides must read the same values.
    func propertyAccess(coordinator: PersistentStoreCoordinator) throws -> PropertyAccess {
        let context = ObjectContext(coordinator: coordinator, name: "properties")
        let recipes = try context.fetch(FetchDescriptor<Recipe>(sortBy: [SortDescriptor(\.name)], fetchLimit: propertyObjects))
        guard recipes.count == min(propertyObjects, self.recipes) else {
            throw ValidationError("the property access fetch found \(recipes.count) recipes")
        }
        let readPasses = 5

        func readTyped() -> Int {
            var total = 0
            for _ in 0..<readPasses {
                for recipe in recipes {
                    total &+= recipe.name.utf8.count
                    total &+= recipe.overview?.utf8.count ?? 0
                    total &+= recipe.type?.name?.utf8.count ?? 0
                }
            }
            return total
        }
        func readString() throws -> Int {
            var total = 0
            for _ in 0..<readPasses {
                for recipe in recipes {
                    let object = recipe.object
                    total &+= try object.value(forKey: "name", as: String.self)?.utf8.count ?? 0
                    total &+= try object.value(forKey: "overview", as: String.self)?.utf8.count ?? 0
                    total &+= try object.object(forKey: "type")?.value(forKey: "name", as: String.self)?.utf8.count ?? 0
                }
            }
            return total
        }
        func writeTyped(_ overviews: [String], _ times: [String]) {
            for (index, recipe) in recipes.enumerated() {
                recipe.overview = overviews[index]
                recipe.prepTime = times[index]
            }
        }
        func writeString(_ overviews: [String], _ times: [String]) throws {
            for (index, recipe) in recipes.enumerated() {
                try recipe.object.setValue(overviews[index], forKey: "overview")
                try recipe.object.setValue(times[index], forKey: "prepTime")
            }
        }

        // Fault every object (and the types) in before anything is timed.
        _ = try readString()
        var typedReads: [Double] = [], stringReads: [Double] = [], typedWrites: [Double] = [], stringWrites: [Double] = []
        for run in 0...repeats {
            // Values neither side has written before, made outside the timing.
            let overviews = (0..<recipes.count).map { ["Overview \(run).\($0) typed", "Overview \(run).\($0) by key"] }
            let times = (0..<recipes.count).map { ["\(run) min \($0) typed", "\(run) min \($0) by key"] }
            let typedOverviews = overviews.map { $0[0] }, typedTimes = times.map { $0[0] }
            let stringOverviews = overviews.map { $0[1] }, stringTimes = times.map { $0[1] }
            var typedTotal = 0, stringTotal = 0
            var typedRead = 0.0, stringRead = 0.0, typedWrite = 0.0, stringWrite = 0.0
            let typedFirst = run % 2 == 1
            for side in typedFirst ? [true, false] : [false, true] {
                if side {
                    typedRead = Self.seconds { typedTotal = readTyped() } * 1000
                    typedWrite = Self.seconds { writeTyped(typedOverviews, typedTimes) } * 1000
                } else {
                    stringRead = try Self.seconds { stringTotal = try readString() } * 1000
                    stringWrite = try Self.seconds { try writeString(stringOverviews, stringTimes) } * 1000
                }
            }
            // The two sides read after different writes; read the same state both ways.
            guard typedTotal > 0, stringTotal > 0 else { throw ValidationError("property reads found nothing") }
            let (checkTyped, checkString) = (readTyped(), try readString())
            guard checkTyped == checkString else {
                throw ValidationError("typed reads total \(checkTyped) characters, reads by key \(checkString)")
            }
            if run > 0 {
                typedReads.append(typedRead)
                stringReads.append(stringRead)
                typedWrites.append(typedWrite)
                stringWrites.append(stringWrite)
            }
        }
        // A typed write that failed is thrown by the context's next fetch.
        _ = try context.fetch(FetchDescriptor<Recipe>(fetchLimit: 1))
        context.rollback()
        return PropertyAccess(objects: recipes.count, typedReadMs: typedReads.median / Double(readPasses),
                              stringReadMs: stringReads.median / Double(readPasses),
                              typedWriteMs: typedWrites.median, stringWriteMs: stringWrites.median)
    }

    /// Median milliseconds of the cross-process observation.
    struct Observation {
        var runs: Int
        /// The anchor: `recipes add`'s own wall time, spawn to exit.
        var childWallMs: Double
        /// From the child's exit to the observer's update that holds its recipe (negative
        /// when the update came before the exit was seen).
        var fromExitMs: Double
        var fromExitMaxMs: Double
        /// From the child's spawn to that update.
        var fromStartMs: Double
    }

    /// A typed observer (`observe(FetchDescriptor<Recipe>)`, default poll interval) in this
    /// process over a store file, and `observeRuns` runs of `recipes add` on the same file,
    /// 0.3 to 0.6 s apart so that they land at different points of the polling cycle. `nil`
    /// when `observeRuns` is 0, or when no `recipes` was found and none was given.
    func observeAcrossProcesses(in directory: URL) throws -> Observation? {
        guard observeRuns > 0 else { return nil }
        let executable: String
        do {
            executable = try RecipesExecutable.path(recipesExecutable, option: "--recipes-executable")
        } catch {
            guard recipesExecutable == nil else { throw error }
            FileHandle.standardError.write(Data("recipes-bench graph: cross-process observation skipped: \(error)\n".utf8))
            return nil
        }
        let storeURL = directory.appendingPathComponent("observed.sqlite")
        let store = ["--store", storeURL.path, "--no-samples"]
        _ = try ChildProcess.run(executable, ["add", "--name", "Observed 00 first"] + store)
        let opened = try RecipesStore(url: storeURL)
        let live = try opened.container.newContext().observe(FetchDescriptor<Recipe>(sortBy: [SortDescriptor(\.name)]))
        let log = UpdateLog()
        let observer = Task.detached {
            do {
                for try await update in live { log.append(count: update.results.count) }
            } catch {
                log.fail(error)
            }
        }
        defer { observer.cancel() }
        guard try log.wait(timeout: 30, until: { $0 >= 1 }) != nil else {
            throw ValidationError("the typed observer never delivered its first results")
        }
        var random = SplitMix64(seed: 11)
        var wall: [Double] = [], fromExit: [Double] = [], fromStart: [Double] = []
        for run in 1...observeRuns {
            usleep(300_000 + UInt32(random.next() % 300_000))
            let started = ContinuousClock.now
            _ = try ChildProcess.run(executable, ["add", "--name", String(format: "Observed %02d", run)] + store)
            let exited = ContinuousClock.now
            guard let seen = try log.wait(timeout: 30, until: { $0 >= run + 1 }) else {
                throw ValidationError("the typed observer never showed the recipe of `recipes add` run \(run)")
            }
            wall.append(Self.milliseconds(exited - started))
            fromExit.append(Self.milliseconds(seen - exited))
            fromStart.append(Self.milliseconds(seen - started))
        }
        return Observation(runs: observeRuns, childWallMs: wall.median, fromExitMs: fromExit.median,
                           fromExitMaxMs: fromExit.max() ?? 0, fromStartMs: fromStart.median)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}

/// When each update of an observation arrived and how many results it held, written by the
/// observing task and read by the benchmark's thread.
private final class UpdateLog: @unchecked Sendable {
    private let lock = NSLock()
    private var updates: [(time: ContinuousClock.Instant, count: Int)] = []
    private var failure: (any Error)?

    func append(count: Int) {
        let now = ContinuousClock.now
        lock.withLock { updates.append((now, count)) }
    }

    func fail(_ error: any Error) {
        lock.withLock { failure = error }
    }

    /// The arrival of the first update whose count satisfies `condition`, waiting up to
    /// `timeout` seconds; `nil` at the timeout. Throws the observation's error.
    func wait(timeout: Double, until condition: (Int) -> Bool) throws -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            let (found, error) = lock.withLock { (updates.first { condition($0.count) }?.time, failure) }
            if let found { return found }
            if let error { throw error }
            usleep(2_000)
        }
        return nil
    }
}
