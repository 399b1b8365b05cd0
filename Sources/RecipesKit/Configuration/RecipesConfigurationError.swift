/// Why the `recipes` configuration could not be resolved. Messages name the file or
/// variable at fault and never contain a password.
public enum RecipesConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The configuration file exists but cannot be read.
    case unreadableConfigFile(path: String, reason: String)
    /// The configuration file is not a JSON object of the expected shape.
    case malformedConfigFile(path: String, reason: String)
    /// A remote (from `source`) that is neither an http(s) URL with a host, a `file:` URL,
    /// nor a path; `maskedValue` has its password replaced.
    case invalidRemote(maskedValue: String, source: String)
    /// A store location (from `source`) that is empty or names a directory.
    case invalidStorePath(path: String, source: String)
    /// An environment variable whose value is not one of the accepted spellings.
    case invalidEnvironmentValue(name: String, value: String, expected: String)
    /// A remote (from `source`) that reads as a server address typed without `http://`
    /// (`user:password@host…` or `host:port/…`); `maskedValue` has its password replaced.
    case remoteWithoutScheme(maskedValue: String, source: String)

    /// One line: what is wrong, where it came from, how to fix it.
    public var description: String {
        switch self {
        case .unreadableConfigFile(let path, let reason):
            "cannot read the configuration file \(path): \(reason); fix its permissions or remove it"
        case .malformedConfigFile(let path, let reason):
            "the configuration file \(path) is malformed: \(reason); it must be a JSON object such as {\"remote\": \"https://host/db\"}"
        case .invalidRemote(let value, let source):
            "the remote \"\(value)\" from \(source) is not usable: give an http(s) URL with a host (https://user:password@host/db) or the path of another store"
        case .invalidStorePath(let path, let source):
            "the store location \"\(path)\" from \(source) is not usable: give the path of a store file, not a directory"
        case .invalidEnvironmentValue(let name, let value, let expected):
            "\(name)=\"\(value)\" is not understood; use \(expected)"
        case .remoteWithoutScheme(let value, let source):
            "the remote \"\(value)\" from \(source) has no scheme; write http://\(value) (or https://…), or ./\(value) if it is a store file"
        }
    }
}
