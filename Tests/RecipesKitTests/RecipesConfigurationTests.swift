import Foundation
import Testing
@testable import RecipesKit
import TestSupport
import HTTPSupport

@Suite("Recipes configuration")
struct RecipesConfigurationTests {
    private func resolve(_ environment: [String: String], in directory: TemporaryDirectory) throws(RecipesConfigurationError) -> RecipesConfiguration {
        try resolve(.init(), environment, in: directory)
    }

    private func resolve(
        _ options: RecipesConfiguration.Options, _ environment: [String: String], in directory: TemporaryDirectory
    ) throws(RecipesConfigurationError) -> RecipesConfiguration {
        try RecipesConfiguration.resolve(
            options: options, environment: environment, currentDirectory: directory.file("work"))
    }

    @Test("the process environment it reads is ProcessInfo's, for the variables it names, and no other variable counts")
    func processEnvironmentHoldsTheNamedVariables() throws {
        let all = ProcessInfo.processInfo.environment
        let read = RecipesConfiguration.processEnvironment()
        #expect(read == all.filter { RecipesConfiguration.variableNames.contains($0.key) })
        #expect(read["HOME"] == all["HOME"])
        // A variable of a similar name is not read.
        let home = try TemporaryDirectory()
        let configuration = try resolve(["HOME": home.url.path, "RECIPES_STORE_PATH": home.file("other.sqlite").path], in: home)
        #expect(configuration.storeSource == .defaultValue)
    }

    @Test("defaults come from HOME when nothing else is set")
    func defaults() throws {
        let home = try TemporaryDirectory()
        let configuration = try resolve(["HOME": home.url.path], in: home)
        #expect(configuration.storeURL.path == home.file(".local/share/recipes/recipes.sqlite").path)
        #expect(configuration.storeSource == .defaultValue)
        #expect(configuration.configFileURL.path == home.file(".config/recipes/recipes.json").path)
        #expect(configuration.remoteURL == nil && configuration.remoteSource == nil && configuration.maskedRemote == nil)
        #expect(configuration.seedsSamples && configuration.samplesSource == .defaultValue)
    }

    @Test("store precedence: --store, then RECIPES_STORE, then XDG_DATA_HOME, then HOME")
    func storePrecedence() throws {
        let home = try TemporaryDirectory()
        var environment = ["HOME": home.url.path, "XDG_DATA_HOME": home.file("xdg-data").path]
        #expect(try resolve(environment, in: home).storeURL.path == home.file("xdg-data/recipes/recipes.sqlite").path)

        environment["RECIPES_STORE"] = home.file("env.sqlite").path
        let fromEnvironment = try resolve(environment, in: home)
        #expect(fromEnvironment.storeURL.path == home.file("env.sqlite").path && fromEnvironment.storeSource == .environment)

        let fromOption = try resolve(.init(store: home.file("option.sqlite").path), environment, in: home)
        #expect(fromOption.storeURL.path == home.file("option.sqlite").path && fromOption.storeSource == .option)

        #expect(try resolve(.init(store: "stores/mine.sqlite"), environment, in: home).storeURL.path
            == home.file("work/stores/mine.sqlite").path)
        #expect(try resolve(.init(store: "~/x.sqlite"), environment, in: home).storeURL.path == home.file("x.sqlite").path)
    }

    @Test("empty variables count as unset and relative XDG paths are ignored")
    func xdgRules() throws {
        let home = try TemporaryDirectory()
        let configuration = try resolve(
            ["HOME": home.url.path, "RECIPES_STORE": "", "XDG_DATA_HOME": "relative/data", "XDG_CONFIG_HOME": "",
             "RECIPES_REMOTE": "", "RECIPES_NO_SAMPLES": ""], in: home)
        #expect(configuration.storeURL.path == home.file(".local/share/recipes/recipes.sqlite").path)
        #expect(configuration.configFileURL.path == home.file(".config/recipes/recipes.json").path)
        #expect(configuration.remoteURL == nil && configuration.seedsSamples)
    }

    @Test("remote precedence: --remote, then RECIPES_REMOTE, then the config file (XDG_CONFIG_HOME, else ~/.config)")
    func remotePrecedence() throws {
        let home = try TemporaryDirectory()
        try home.write(".config/recipes/recipes.json", #"{"remote": "https://home.example/db", "theme": "dark"}"#)
        var environment = ["HOME": home.url.path]
        let fromHomeFile = try resolve(environment, in: home)
        #expect(fromHomeFile.remoteURL?.absoluteString == "https://home.example/db")
        #expect(fromHomeFile.remoteSource == .configFile)

        try home.write("xdg/recipes/recipes.json", #"{"remote": "https://xdg.example/db"}"#)
        environment["XDG_CONFIG_HOME"] = home.file("xdg").path
        let fromXDGFile = try resolve(environment, in: home)
        #expect(fromXDGFile.remoteURL?.absoluteString == "https://xdg.example/db")
        #expect(fromXDGFile.configFileURL.path == home.file("xdg/recipes/recipes.json").path)

        environment["RECIPES_REMOTE"] = "http://env.example:5984/recipes"
        let fromEnvironment = try resolve(environment, in: home)
        #expect(fromEnvironment.remoteURL?.absoluteString == "http://env.example:5984/recipes")
        #expect(fromEnvironment.remoteSource == .environment)

        let fromOption = try resolve(.init(remote: "https://option.example/db"), environment, in: home)
        #expect(fromOption.remoteURL?.absoluteString == "https://option.example/db" && fromOption.remoteSource == .option)
    }

    @Test("a remote that is a path means another local store")
    func localRemote() throws {
        let home = try TemporaryDirectory()
        let configuration = try resolve(.init(remote: "../other.sqlite"), ["HOME": home.url.path], in: home)
        #expect(configuration.remoteIsLocalStore)
        #expect(configuration.remoteURL?.path == home.file("other.sqlite").path)
        try home.write(".config/recipes/recipes.json", #"{"remote": "peer.sqlite"}"#)
        let fromFile = try resolve(["HOME": home.url.path], in: home)
        #expect(fromFile.remoteURL?.path == home.file(".config/recipes/peer.sqlite").path)
        #expect(try resolve(.init(remote: "file:///srv/peer.sqlite"), ["HOME": home.url.path], in: home).remoteURL?.path
            == "/srv/peer.sqlite")
    }

    @Test("the masked remote never contains the password")
    func masking() throws {
        let home = try TemporaryDirectory()
        let configuration = try resolve(
            .init(remote: "https://admin:s3cr%40t@db.example:6984/recipes?x=1"), ["HOME": home.url.path], in: home)
        let masked = try #require(configuration.maskedRemote)
        #expect(masked == "https://admin:***@db.example:6984/recipes?x=1")
        #expect(!masked.contains("s3cr"))
        #expect(configuration.remoteURL?.password == "s3cr%40t" || configuration.remoteURL?.password == "s3cr@t")

        #expect(CredentialMask.masked("https://user:p@ss@host/db") == "https://user:***@host/db")
        #expect(CredentialMask.masked("https://user@host/db") == "https://user@host/db")
        #expect(CredentialMask.masked("https://host/db/a:b@c") == "https://host/db/a:b@c")
        #expect(CredentialMask.masked("not a url") == "not a url")
        #expect(CredentialMask.masked("couchdb://u:pw@h") == "couchdb://u:***@h")
    }

    @Test("an invalid remote is refused with its password masked")
    func invalidRemote() throws {
        let home = try TemporaryDirectory()
        #expect(throws: RecipesConfigurationError.invalidRemote(maskedValue: "ftp://me:***@host/db", source: "--remote")) {
            try resolve(.init(remote: "ftp://me:hunter2@host/db"), ["HOME": home.url.path], in: home)
        }
        #expect(throws: RecipesConfigurationError.invalidRemote(maskedValue: "https:///db", source: "RECIPES_REMOTE")) {
            try resolve(["HOME": home.url.path, "RECIPES_REMOTE": "https:///db"], in: home)
        }
        do {
            _ = try resolve(.init(remote: "gopher://me:hunter2@host"), ["HOME": home.url.path], in: home)
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test("unreadable or malformed config files name the path; the file is not read when not needed")
    func configFileErrors() throws {
        let home = try TemporaryDirectory()
        let environment = ["HOME": home.url.path]
        let file = home.file(".config/recipes/recipes.json")

        try home.write(".config/recipes/recipes.json", "{\"remote\": ")
        do {
            _ = try resolve(environment, in: home)
            Issue.record("malformed file accepted")
        } catch {
            guard case .malformedConfigFile(let path, let reason) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == file.path && reason.hasPrefix("invalid JSON"))
            #expect(error.description.contains(file.path))
        }
        #expect(try resolve(.init(remote: "https://ok.example/db"), environment, in: home).remoteSource == .option)

        try home.write(".config/recipes/recipes.json", #"{"remote": 5984}"#)
        #expect(throws: RecipesConfigurationError.malformedConfigFile(path: file.path, reason: "\"remote\" must be a string, found a number")) {
            try resolve(environment, in: home)
        }
        try home.write(".config/recipes/recipes.json", #"["https://x.example"]"#)
        #expect(throws: RecipesConfigurationError.malformedConfigFile(path: file.path, reason: "expected an object, found an array")) {
            try resolve(environment, in: home)
        }
        try home.write(".config/recipes/recipes.json", #"{"remote": null}"#)
        #expect(try resolve(environment, in: home).remoteURL == nil)

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        #expect(throws: RecipesConfigurationError.unreadableConfigFile(path: file.path, reason: "it is a directory")) {
            try resolve(environment, in: home)
        }
    }

    @Test("samples: --no-samples, then RECIPES_NO_SAMPLES")
    func samples() throws {
        let home = try TemporaryDirectory()
        let base = ["HOME": home.url.path]
        #expect(try resolve(.init(noSamples: true), base, in: home).seedsSamples == false)
        for value in ["1", "true", "YES", "on"] {
            let configuration = try resolve(base.merging(["RECIPES_NO_SAMPLES": value]) { $1 }, in: home)
            #expect(!configuration.seedsSamples && configuration.samplesSource == .environment, "\(value)")
        }
        #expect(try resolve(base.merging(["RECIPES_NO_SAMPLES": "0"]) { $1 }, in: home).seedsSamples)
        #expect(try resolve(.init(noSamples: true), base.merging(["RECIPES_NO_SAMPLES": "0"]) { $1 }, in: home).samplesSource == .option)
        #expect(throws: RecipesConfigurationError.invalidEnvironmentValue(
            name: "RECIPES_NO_SAMPLES", value: "maybe", expected: "1/true/yes/on or 0/false/no/off")) {
            try resolve(base.merging(["RECIPES_NO_SAMPLES": "maybe"]) { $1 }, in: home)
        }
    }

    @Test("a store location that is a directory is refused")
    func storeIsDirectory() throws {
        let home = try TemporaryDirectory()
        #expect(throws: RecipesConfigurationError.invalidStorePath(path: home.url.path, source: "RECIPES_STORE")) {
            try resolve(["HOME": home.url.path, "RECIPES_STORE": home.url.path], in: home)
        }
        #expect(throws: RecipesConfigurationError.self) {
            try resolve(.init(store: "somewhere/"), ["HOME": home.url.path], in: home)
        }
    }

    @Test("a store location of spaces and tabs is refused; a name with spaces in it is not")
    func blankStorePath() throws {
        let home = try TemporaryDirectory()
        for blank in ["", " ", "\t \t", "\u{00A0}\u{2003}"] {
            #expect(throws: RecipesConfigurationError.invalidStorePath(path: blank, source: "--store")) {
                try resolve(.init(store: blank), ["HOME": home.url.path], in: home)
            }
        }
        let spaced = try resolve(.init(store: " my book.sqlite "), ["HOME": home.url.path], in: home)
        #expect(spaced.storeURL.lastPathComponent == " my book.sqlite ")
    }
}
