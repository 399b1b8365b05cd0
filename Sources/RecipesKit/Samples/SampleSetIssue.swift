/// One problem found in a sample set file, located by its JSON path.
public struct SampleSetIssue: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Where in the document the problem is; `nil` for problems with the file as a whole
    /// (unreadable, not JSON).
    public var path: JSONPath?
    /// What is wrong there.
    public var problem: SampleSetProblem

    /// Makes an issue.
    public init(path: JSONPath?, problem: SampleSetProblem) {
        self.path = path
        self.problem = problem
    }

    /// `$.recipes[3].ingredients[1].name: expected a non-empty string, found a number`.
    public var description: String {
        if let path { "\(path): \(problem)" } else { problem.description }
    }
}
