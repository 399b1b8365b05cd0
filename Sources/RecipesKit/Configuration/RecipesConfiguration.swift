import DocumentStore
public import Foundation
import DocumentFormat
import HTTPSupport

/// Where the `recipes` program keeps its store, which remote it syncs with, and whether it
/// seeds sample recipes — resolved once from the command line, the environment and the
/// configuration file, in that order of precedence.
///
/// Resolution takes the environment as a plain dictionary (normally
/// ``processEnvironment()``) so it is a pure function of its inputs plus the
/// configuration file, and tests never touch the process environment. Empty variables count
/// as unset, and XDG variables are ignored unless they hold absolute paths, as the XDG Base
/// Directory specification says.
///
/// - Store: `--store`, else `RECIPES_STORE`, else `$XDG_DATA_HOME/recipes/recipes.sqlite`,
///   else `~/.local/share/recipes/recipes.sqlite`.
/// - Remote: `--remote`, else `RECIPES_REMOTE`, else `"remote"` in the JSON file
///   `$XDG_CONFIG_HOME/recipes/recipes.json`, else `~/.config/recipes/recipes.json`; none if
///   none of them says. The file is only read when neither option nor variable gives a
///   remote, and a missing file is not an error. A remote is an http(s) URL, a `file:` URL,
///   or a path (to another store, for local-to-local sync).
/// - Samples: seeded unless `--no-samples` or `RECIPES_NO_SAMPLES` is `1`/`true`/`yes`/`on`.
/// - Password file (for encrypted notes): `--password-file`, else `RECIPES_PASSWORD_FILE`,
///   else `"passwordFile"` in the configuration file (relative to the file's folder); none
///   if none says. The password itself is never a command-line value.
/// - CA file (certificate authorities trusted for `https://` remotes besides the system's):
///   `--ca-file`, else `RECIPES_CA_FILE`, else `"caFile"` in the configuration file; none if
///   none says.
/// - TLS certificate and key of `serve` and `web`: `--tls-cert` and `--tls-key`, else
///   `"tlsCert"` and `"tlsKey"` in the configuration file (see ``tlsFiles(certificate:key:environment:currentDirectory:)``).
public struct RecipesConfiguration: Sendable, Equatable {
    /// Where a resolved value came from, for `recipes config`-style output and messages.
    public enum Source: String, Sendable, Equatable, CustomStringConvertible {
        /// A command-line option (`--store`, `--remote`, `--no-samples`).
        case option
        /// An environment variable (`RECIPES_STORE`, `RECIPES_REMOTE`, `RECIPES_NO_SAMPLES`).
        case environment
        /// The configuration file.
        case configFile = "config file"
        /// The built-in default (XDG directories, samples on).
        case defaultValue = "default"

        /// The source's name as shown to people.
        public var description: String { rawValue }
    }

    /// The command-line values that take precedence over everything else; `nil` = not given.
    public struct Options: Sendable, Equatable {
        /// `--store PATH`.
        public var store: String?
        /// `--remote URL`.
        public var remote: String?
        /// `--no-samples`.
        public var noSamples: Bool
        /// `--password-file PATH`.
        public var passwordFile: String?
        /// `--ca-file PATH`.
        public var caFile: String?

        /// Makes a set of options.
        public init(store: String? = nil, remote: String? = nil, noSamples: Bool = false, passwordFile: String? = nil,
                    caFile: String? = nil) {
            self.caFile = caFile
            self.store = store
            self.remote = remote
            self.noSamples = noSamples
            self.passwordFile = passwordFile
        }
    }

    /// The store file (a `file:` URL).
    public var storeURL: URL
    /// Where ``storeURL`` came from.
    public var storeSource: Source
    /// The remote to sync with, credentials included; `nil` when none is configured.
    /// Never print it: use ``maskedRemote``.
    public var remoteURL: URL?
    /// Where ``remoteURL`` came from; `nil` when there is no remote.
    public var remoteSource: Source?
    /// Whether first-run seeding may import the sample recipes.
    public var seedsSamples: Bool
    /// Where ``seedsSamples`` came from.
    public var samplesSource: Source
    /// The configuration file that was (or would be) consulted.
    public var configFileURL: URL
    /// The file holding the password for encrypted attributes (its first line); `nil` when
    /// none is configured.
    public var passwordFileURL: URL?
    /// Where ``passwordFileURL`` came from; `nil` when there is none.
    public var passwordFileSource: Source?
    /// Why the configuration file could not say where the password file is, when it had to
    /// be asked; reported only by commands that need the password (see
    /// ``checkedPasswordFileURL()``), so a broken file does not stop the others.
    public var passwordFileProblem: RecipesConfigurationError?

    /// The PEM file of certificate authorities trusted for `https://` remotes besides the
    /// system's roots; `nil` when none is configured.
    public var caFileURL: URL?
    /// Where ``caFileURL`` came from; `nil` when there is none.
    public var caFileSource: Source?
    /// Why the configuration file could not say where the CA file is, when it had to be
    /// asked; reported by the commands that reach a remote (``checkedCAFileURL()``).
    public var caFileProblem: RecipesConfigurationError?

    /// ``caFileURL``, or the configuration file's problem when it was asked and failed.
    /// - Throws: the ``RecipesConfigurationError`` met reading the configuration file.
    public func checkedCAFileURL() throws(RecipesConfigurationError) -> URL? {
        if let caFileProblem { throw caFileProblem }
        return caFileURL
    }

    /// ``passwordFileURL``, or the configuration file's problem when it was asked and failed.
    /// - Throws: the ``RecipesConfigurationError`` met reading the configuration file.
    public func checkedPasswordFileURL() throws(RecipesConfigurationError) -> URL? {
        if let passwordFileProblem { throw passwordFileProblem }
        return passwordFileURL
    }
    /// The remote with its password replaced by `***`, safe for any output.
    public var maskedRemote: String? {
        remoteURL.map { CredentialMask.masked($0.absoluteString) }
    }

    /// Whether the remote is another local store rather than a server.
    public var remoteIsLocalStore: Bool { remoteURL?.isFileURL ?? false }

    /// Makes a configuration from already resolved values.
    public init(
        storeURL: URL, storeSource: Source, remoteURL: URL?, remoteSource: Source?,
        seedsSamples: Bool, samplesSource: Source, configFileURL: URL,
        passwordFileURL: URL? = nil, passwordFileSource: Source? = nil, passwordFileProblem: RecipesConfigurationError? = nil
    ) {
        self.passwordFileProblem = passwordFileProblem
        self.passwordFileURL = passwordFileURL
        self.passwordFileSource = passwordFileSource
        self.storeURL = storeURL
        self.storeSource = storeSource
        self.remoteURL = remoteURL
        self.remoteSource = remoteSource
        self.seedsSamples = seedsSamples
        self.samplesSource = samplesSource
        self.configFileURL = configFileURL
    }

    /// The environment variables ``resolve(options:environment:currentDirectory:)`` reads.
    public static let variableNames = [
        "RECIPES_STORE", "RECIPES_REMOTE", "RECIPES_NO_SAMPLES", "RECIPES_PASSWORD_FILE", "RECIPES_CA_FILE", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOME",
    ]

    /// The process's values of ``variableNames``: what resolution reads of the environment,
    /// read one by one, because building `ProcessInfo`'s dictionary of every variable costs
    /// each command's start a tenth of a millisecond.
    public static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in variableNames {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// Resolves the configuration from `options`, `environment` and the configuration file.
    /// Relative paths resolve against `currentDirectory`.
    public static func resolve(
        options: Options = Options(),
        environment: [String: String],
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) throws(RecipesConfigurationError) -> RecipesConfiguration {
        // Only the listed variables count, so ``processEnvironment()`` gives all it reads.
        let env = environment.filter { !$0.value.isEmpty && variableNames.contains($0.key) }
        let home = homeDirectory(env)

        let storeURL: URL
        let storeSource: Source
        if let store = options.store {
            storeURL = try storeFile(store, source: "--store", currentDirectory: currentDirectory, home: home)
            storeSource = .option
        } else if let store = env["RECIPES_STORE"] {
            storeURL = try storeFile(store, source: "RECIPES_STORE", currentDirectory: currentDirectory, home: home)
            storeSource = .environment
        } else {
            let dataHome = absoluteDirectory(env["XDG_DATA_HOME"])
                ?? home.appendingPathComponent(".local/share", isDirectory: true)
            storeURL = dataHome.appendingPathComponent("recipes/recipes.sqlite")
            storeSource = .defaultValue
        }

        let configHome = absoluteDirectory(env["XDG_CONFIG_HOME"])
            ?? home.appendingPathComponent(".config", isDirectory: true)
        let configFileURL = configHome.appendingPathComponent("recipes/recipes.json")

        var remoteURL: URL?
        var remoteSource: Source?
        if let remote = options.remote {
            remoteURL = try remoteLocation(remote, source: "--remote", currentDirectory: currentDirectory, home: home)
            remoteSource = .option
        } else if let remote = env["RECIPES_REMOTE"] {
            remoteURL = try remoteLocation(remote, source: "RECIPES_REMOTE", currentDirectory: currentDirectory, home: home)
            remoteSource = .environment
        } else if let remote = try stringFromConfigFile(configFileURL, member: "remote") {
            // Relative paths in the file are relative to the file's folder, not to wherever
            // the program happens to run.
            remoteURL = try remoteLocation(
                remote, source: configFileURL.path, currentDirectory: configFileURL.deletingLastPathComponent(), home: home)
            remoteSource = .configFile
        }

        let seedsSamples: Bool
        let samplesSource: Source
        if options.noSamples {
            seedsSamples = false
            samplesSource = .option
        } else if let value = env["RECIPES_NO_SAMPLES"] {
            switch value.lowercased() {
            case "1", "true", "yes", "on": seedsSamples = false
            case "0", "false", "no", "off": seedsSamples = true
            default:
                throw .invalidEnvironmentValue(name: "RECIPES_NO_SAMPLES", value: value, expected: "1/true/yes/on or 0/false/no/off")
            }
            samplesSource = .environment
        } else {
            seedsSamples = true
            samplesSource = .defaultValue
        }

        var passwordFileURL: URL?
        var passwordFileSource: Source?
        var passwordFileProblem: RecipesConfigurationError?
        if let file = options.passwordFile {
            passwordFileURL = expandedPath(file, currentDirectory: currentDirectory, home: home)
            passwordFileSource = .option
        } else if let file = env["RECIPES_PASSWORD_FILE"] {
            passwordFileURL = expandedPath(file, currentDirectory: currentDirectory, home: home)
            passwordFileSource = .environment
        } else {
            do {
                if let file = try stringFromConfigFile(configFileURL, member: "passwordFile") {
                    passwordFileURL = expandedPath(file, currentDirectory: configFileURL.deletingLastPathComponent(), home: home)
                    passwordFileSource = .configFile
                }
            } catch {
                passwordFileProblem = error
            }
        }
        var configuration = RecipesConfiguration(
            storeURL: storeURL, storeSource: storeSource, remoteURL: remoteURL, remoteSource: remoteSource,
            seedsSamples: seedsSamples, samplesSource: samplesSource, configFileURL: configFileURL,
            passwordFileURL: passwordFileURL, passwordFileSource: passwordFileSource, passwordFileProblem: passwordFileProblem)
        if let file = options.caFile {
            configuration.caFileURL = expandedPath(file, currentDirectory: currentDirectory, home: home)
            configuration.caFileSource = .option
        } else if let file = env["RECIPES_CA_FILE"] {
            configuration.caFileURL = expandedPath(file, currentDirectory: currentDirectory, home: home)
            configuration.caFileSource = .environment
        } else if remoteURL?.scheme?.lowercased() == "https" {
            // Only a remote that speaks TLS asks the file, so a broken file does not stop
            // the commands that never reach one.
            do {
                if let file = try stringFromConfigFile(configFileURL, member: "caFile") {
                    configuration.caFileURL = expandedPath(file, currentDirectory: configFileURL.deletingLastPathComponent(), home: home)
                    configuration.caFileSource = .configFile
                }
            } catch {
                configuration.caFileProblem = error
            }
        }
        return configuration
    }

    /// The TLS certificate chain and key `serve` and `web` serve with: `certificate` and
    /// `key` (the `--tls-cert` and `--tls-key` values, relative to `currentDirectory`), else
    /// `"tlsCert"` and `"tlsKey"` in the configuration file (relative to its folder). `nil`
    /// when neither says: plain HTTP. The two are taken together from one place; only one of
    /// them given is returned as is, for the caller to refuse.
    /// - Throws: the ``RecipesConfigurationError`` met reading the configuration file.
    public func tlsFiles(
        certificate: String?, key: String?, environment: [String: String] = RecipesConfiguration.processEnvironment(),
        currentDirectory: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    ) throws(RecipesConfigurationError) -> (certificate: URL?, key: URL?)? {
        let home = Self.homeDirectory(environment.filter { !$0.value.isEmpty && Self.variableNames.contains($0.key) })
        if certificate != nil || key != nil {
            return (certificate.map { Self.expandedPath($0, currentDirectory: currentDirectory, home: home) },
                    key.map { Self.expandedPath($0, currentDirectory: currentDirectory, home: home) })
        }
        let folder = configFileURL.deletingLastPathComponent()
        let fileCertificate = try Self.stringFromConfigFile(configFileURL, member: "tlsCert")
        let fileKey = try Self.stringFromConfigFile(configFileURL, member: "tlsKey")
        if fileCertificate == nil, fileKey == nil { return nil }
        return (fileCertificate.map { Self.expandedPath($0, currentDirectory: folder, home: home) },
                fileKey.map { Self.expandedPath($0, currentDirectory: folder, home: home) })
    }

    // MARK: - Pieces

    private static func homeDirectory(_ env: [String: String]) -> URL {
        if let home = absoluteDirectory(env["HOME"]) { return home }
        return FileManager.default.homeDirectoryForCurrentUser
    }

    private static func absoluteDirectory(_ path: String?) -> URL? {
        guard let path, path.hasPrefix("/") else { return nil }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    private static func expandedPath(_ path: String, currentDirectory: URL, home: URL) -> URL {
        if path == "~" { return home }
        if path.hasPrefix("~/") { return home.appendingPathComponent(String(path.dropFirst(2))) }
        if path.hasPrefix("/") { return URL(fileURLWithPath: path).standardizedFileURL }
        return currentDirectory.appendingPathComponent(path).standardizedFileURL
    }

    private static func storeFile(
        _ path: String, source: String, currentDirectory: URL, home: URL
    ) throws(RecipesConfigurationError) -> URL {
        guard !isBlank(path), !path.hasSuffix("/") else {
            throw .invalidStorePath(path: path, source: source)
        }
        let url = expandedPath(path, currentDirectory: currentDirectory, home: home)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .invalidStorePath(path: path, source: source)
        }
        return url
    }

    /// Whether `text` holds only spaces and tabs (what `CharacterSet.whitespaces` holds),
    /// checked without Foundation's string bridging, which every command's start would pay.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator }
    }

    private static func remoteLocation(
        _ text: String, source: String, currentDirectory: URL, home: URL
    ) throws(RecipesConfigurationError) -> URL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalidRemote(maskedValue: text, source: source) }
        if !trimmed.contains("://") && !trimmed.lowercased().hasPrefix("file:") {
            if Self.looksLikeURLWithoutScheme(trimmed) {
                throw .remoteWithoutScheme(maskedValue: CredentialMask.masked(trimmed), source: source)
            }
            return expandedPath(trimmed, currentDirectory: currentDirectory, home: home)
        }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased() else {
            throw .invalidRemote(maskedValue: CredentialMask.masked(trimmed), source: source)
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else {
                throw .invalidRemote(maskedValue: CredentialMask.masked(trimmed), source: source)
            }
            return url
        case "file":
            guard !url.path.isEmpty else { throw .invalidRemote(maskedValue: CredentialMask.masked(trimmed), source: source) }
            return URL(fileURLWithPath: url.path)
        default:
            throw .invalidRemote(maskedValue: CredentialMask.masked(trimmed), source: source)
        }
    }

    /// A string member (`remote`, `passwordFile`) of the configuration file, `nil` if the
    /// file or the member is absent. Unknown members are ignored so that newer files work
    /// with older programs.
    private static func stringFromConfigFile(_ url: URL, member: String) throws(RecipesConfigurationError) -> String? {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            throw .unreadableConfigFile(path: path, reason: "it is a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadableConfigFile(path: path, reason: (error as NSError).localizedDescription)
        }
        let tree: JSONValue
        switch JSONValue.parseLocatingErrors(data) {
        case .success(let parsed):
            tree = parsed
        case .failure(let syntax):
            let position = syntax.line.map { line in " at line \(line), column \(syntax.column ?? 0)" } ?? ""
            throw .malformedConfigFile(path: path, reason: "invalid JSON\(position): \(syntax.detail)")
        }
        guard case .object(let members) = tree else {
            throw .malformedConfigFile(path: path, reason: "expected an object, found \(tree.kindDescription)")
        }
        switch members[member] {
        case nil, .null?:
            return nil
        case .string(let value)?:
            return value.isEmpty ? nil : value
        case let other?:
            throw .malformedConfigFile(path: path, reason: "\"\(member)\" must be a string, found \(other.kindDescription)")
        }
    }
}
