/// How a fetch's results changed between two runs, as Core Data's fetched results
/// controller reports it: which objects came in, went out, changed their fetched values or
/// moved, each with its position.
///
/// Indexes of ``deleted`` and the `from` of ``moved`` are positions in the old results;
/// indexes of ``inserted``, ``updated`` and the `to` of ``moved`` are positions in the new
/// results. Apply deletions (highest index first), then insertions (lowest first), then
/// moves to turn a list showing the old results into the new ones; then refresh the updated
/// rows. An object whose values changed and whose place among the others changed is both
/// updated and moved. An object that only shifted because others came or went is not moved.
public struct FetchResultsChangeSet: Sendable, Hashable {
    /// An object and its position.
    public struct Entry: Sendable, Hashable {
        /// Which object.
        public let objectID: ObjectID
        /// Its position (in the old results for deletions, in the new ones otherwise).
        public let index: Int

        /// Creates an entry.
        public init(_ objectID: ObjectID, at index: Int) {
            self.objectID = objectID
            self.index = index
        }
    }

    /// An object that changed its place relative to the others.
    public struct Move: Sendable, Hashable {
        /// Which object.
        public let objectID: ObjectID
        /// Its position in the old results.
        public let from: Int
        /// Its position in the new results.
        public let to: Int

        /// Creates a move.
        public init(_ objectID: ObjectID, from: Int, to: Int) {
            self.objectID = objectID
            self.from = from
            self.to = to
        }
    }

    /// Objects that entered the results, by new index, lowest first.
    public var inserted: [Entry]
    /// Objects still in the results whose fetched values changed, by new index, lowest first.
    public var updated: [Entry]
    /// Objects that left the results, by old index, lowest first.
    public var deleted: [Entry]
    /// Objects still in the results whose order relative to the others changed, by new index.
    public var moved: [Move]

    /// Creates a change set.
    public init(inserted: [Entry] = [], updated: [Entry] = [], deleted: [Entry] = [], moved: [Move] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.moved = moved
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && moved.isEmpty }

    /// The changes from `old` to `new` (each a list of distinct IDs, in result order);
    /// `changed` says whether an object in both changed its values.
    ///
    /// Moves are the fewest that explain the new order: the objects in both lists that keep
    /// their relative order form a longest increasing run of old positions, and every other
    /// common object counts as moved. O(n log n).
    public init(from old: [ObjectID], to new: [ObjectID], changed: (ObjectID) -> Bool) {
        var oldIndex: [ObjectID: Int] = [:]
        oldIndex.reserveCapacity(old.count)
        for (i, id) in old.enumerated() { oldIndex[id] = i }
        let newSet = Set(new)
        var inserted: [Entry] = []
        var updated: [Entry] = []
        var common: [(id: ObjectID, from: Int, to: Int)] = []
        for (i, id) in new.enumerated() {
            if let from = oldIndex[id] {
                common.append((id, from, i))
                if changed(id) { updated.append(Entry(id, at: i)) }
            } else {
                inserted.append(Entry(id, at: i))
            }
        }
        let deleted = old.enumerated().filter { !newSet.contains($0.element) }.map { Entry($0.element, at: $0.offset) }
        let kept = Self.longestIncreasingRun(common.map(\.from))
        var moved: [Move] = []
        for (k, entry) in common.enumerated() where !kept.contains(k) {
            moved.append(Move(entry.id, from: entry.from, to: entry.to))
        }
        self.init(inserted: inserted, updated: updated, deleted: deleted, moved: moved)
    }

    /// The positions in `values` of one longest strictly increasing subsequence.
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        guard !values.isEmpty else { return [] }
        var tails: [Int] = []          // positions in `values` ending the best run of each length
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var run = Set<Int>()
        var k = tails.last ?? -1
        while k >= 0 {
            run.insert(k)
            k = previous[k]
        }
        return run
    }
}
