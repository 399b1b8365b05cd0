import ArgumentParser
import RecipesKit

/// The options every subcommand that opens the store understands.
package struct GlobalOptions: ParsableArguments {
    /// Every option at its default, as ArgumentParser starts from.
    package init() {}

    /// `--store PATH`.
    @Option(name: .long, help: ArgumentHelp("The store file.", valueName: "path"))
    var store: String?

    /// `--remote URL`.
    @Option(name: .long, help: ArgumentHelp("The remote to sync with: a CouchDB URL or another store's path.", valueName: "url"))
    var remote: String?

    /// `--no-samples`.
    @Flag(name: .long, help: "Do not seed a new store with sample recipes.")
    var noSamples = false

    /// `--password-file PATH`: the file whose first line is the password for encrypted notes
    /// (the password itself is never an option value, so it stays out of shell history and `ps`).
    @Option(name: .customLong("password-file"), help: ArgumentHelp("A file whose first line is the password for encrypted notes.", valueName: "file"))
    var passwordFile: String?

    /// `--ca-file PATH`: certificate authorities trusted for an `https://` remote besides the
    /// system's (a household CA), in one PEM file.
    @Option(name: .customLong("ca-file"), help: ArgumentHelp("A PEM file of CA certificates trusted for an https:// remote, besides the system's.", valueName: "file"))
    var caFile: String?

    /// `--verbose`.
    @Flag(name: .long, help: "Explain what happens on stderr.")
    package var verbose = false

    /// The options as configuration resolution takes them.
    var configurationOptions: RecipesConfiguration.Options {
        RecipesConfiguration.Options(store: store, remote: remote, noSamples: noSamples, passwordFile: passwordFile, caFile: caFile)
    }

    /// The program's arguments with global options given before the subcommand moved to just
    /// after it, so `recipes --store X list` means `recipes list --store X`, as people type
    /// it for git or docker. Only the leading run of global options moves; everything from the
    /// subcommand on keeps its order.
    static func hoisted(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            if isFlag(argument) || (isValued(name) && argument.contains("=")) {
                leading.append(argument)
                index += 1
            } else if isValued(argument), index + 1 < arguments.count {
                leading += [argument, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        guard !leading.isEmpty, index < arguments.count, !arguments[index].hasPrefix("-") else { return arguments }
        return [arguments[index]] + leading + arguments[(index + 1)...]
    }

    // The two kinds of global option by name. A `switch`, not a `Set`: a set of strings would
    // be the start's first, and costs a scan of the program's protocol conformances.

    /// Whether `name` is a global option that takes a value.
    private static func isValued(_ name: String) -> Bool {
        switch name {
        case "--store", "--remote", "--password-file", "--ca-file": true
        default: false
        }
    }

    /// Whether `name` is a global flag.
    private static func isFlag(_ name: String) -> Bool {
        switch name {
        case "--no-samples", "--verbose": true
        default: false
        }
    }
}
