extension Array where Element: Sendable {
    /// Transforms every element with at most `limit` transforms running at once, and returns
    /// the results in the elements' order: how fetches and writes to a server use several
    /// connections without opening more than asked. The first error cancels the rest.
    func concurrentMap<Result: Sendable>(
        limit: Int, _ transform: @escaping @Sendable (Element) async throws -> Result
    ) async throws -> [Result] {
        if count <= 1 || limit <= 1 {
            var results: [Result] = []
            results.reserveCapacity(count)
            for element in self { results.append(try await transform(element)) }
            return results
        }
        return try await withThrowingTaskGroup(of: (Int, Result).self) { group in
            var results = [Result?](repeating: nil, count: count)
            var next = 0
            while next < Swift.min(limit, count) {
                let index = next
                let element = self[index]
                group.addTask { (index, try await transform(element)) }
                next += 1
            }
            while let (index, result) = try await group.next() {
                results[index] = result
                if next < count {
                    let index = next
                    let element = self[index]
                    group.addTask { (index, try await transform(element)) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }
}
