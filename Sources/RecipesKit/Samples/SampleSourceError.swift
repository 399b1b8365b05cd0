/// Why ``SampleSource`` could not read sample sets from a path: the error of the reader
/// that was chosen for it.
public enum SampleSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A JSON set file (or a folder of them) is invalid.
    case sampleSet(SampleSetError)
    /// A Core Data SQLite store cannot be read.
    case coreDataStore(CoreDataStoreError)

    /// The underlying reader's message (one line per problem for JSON sets).
    public var description: String {
        switch self {
        case .sampleSet(let error): error.description
        case .coreDataStore(let error): error.description
        }
    }

    /// A one-line form for a command's exit message.
    public var summary: String {
        switch self {
        case .sampleSet(let error): error.summary
        case .coreDataStore(let error): error.description
        }
    }
}
