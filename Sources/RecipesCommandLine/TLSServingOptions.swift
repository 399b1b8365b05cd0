package import ArgumentParser

/// The certificate and key `serve` and `web` serve HTTPS with: one definition of the two
/// options, so both commands take and explain them alike.
package struct TLSServingOptions: ParsableArguments {
    @Option(name: .customLong("tls-cert"), help: ArgumentHelp(
        "Serve HTTPS with this PEM certificate chain (needs --tls-key; or \"tlsCert\" in the configuration file). SIGHUP reloads it.",
        valueName: "file"))
    package var tlsCert: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp(
        "The PEM private key of --tls-cert (or \"tlsKey\" in the configuration file).", valueName: "file"))
    package var tlsKey: String?

    /// No certificate: plain HTTP unless the configuration file names one.
    package init() {}
}
