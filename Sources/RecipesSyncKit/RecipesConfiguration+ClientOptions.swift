public import RecipesKit
public import Replication

extension RecipesConfiguration {
    /// `options` with the configured CA file (`caFileURL`) trusted
    /// for an `https://` remote besides the system's roots. Verification is never turned off:
    /// without a CA file the system's roots alone decide.
    /// - Throws: the `RecipesConfigurationError` met reading the configuration file, or the
    ///   `TrustedCertificatesError` naming a CA file that is missing, unreadable or not PEM.
    public func clientOptions(_ options: CouchClientOptions = CouchClientOptions()) throws -> CouchClientOptions {
        var options = options
        if let file = try checkedCAFileURL() {
            options.trustedCertificates = try TrustedCertificates(pemFiles: [file])
        }
        return options
    }
}
