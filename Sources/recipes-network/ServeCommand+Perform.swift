import ArgumentParser
import CouchServer
import Foundation
import Logging
import RecipesCommandLine
import RecipesKit
import Replication
import ServerTLS

extension ServeCommand {
    /// Starts the server and runs until SIGINT or SIGTERM.
    func perform() async throws {
        if let addUser { return try await addAccount(addUser) }
        var credentials: ServerCredentials? = nil
        if let user {
            let secret: String
            if let passwordFile {
                do {
                    secret = try PasswordFile.read(URL(fileURLWithPath: passwordFile))
                } catch {
                    throw ValidationError(error.description)
                }
            } else {
                secret = password ?? ""
            }
            credentials = ServerCredentials(user: user, password: secret)
        }
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? Self.defaultDataDirectory()
        // The certificate and key are read and checked before anything listens.
        let certificate: ServerCertificate?
        let trusted: TrustedCertificates?
        do {
            let configuration = try RecipesConfiguration.resolve(options: .init(caFile: caFile),
                                                                 environment: RecipesConfiguration.processEnvironment())
            certificate = try ServingTLS.certificate(certificate: tls.tlsCert, key: tls.tlsKey, configuration: configuration)
            trusted = try configuration.checkedCAFileURL().map { file throws(TrustedCertificatesError) in try TrustedCertificates(pemFiles: [file]) }
        } catch let error as RecipesConfigurationError {
            throw CommandFailure(message: error.description)
        } catch let error as TrustedCertificatesError {
            throw CommandFailure(message: error.description)
        }
        var logger = Logger(label: "recipes.serve")
        logger.logLevel = .warning
        var serverConfiguration = CouchServerConfiguration(
            dataDirectory: directory, host: bind, port: port, publicHosts: publicHost, credentials: credentials,
            anonymousAccess: allowAnonymous ? .all : (allowAnonymousReads ? .reads : .none),
            maxRequestBodySize: maxBodyMb * 1024 * 1024, maxBufferedBodyBytes: maxTotalBodyMb * 1024 * 1024,
            bodyBudgetWait: .seconds(bodyWait),
            corsOrigins: corsOrigin, idleTimeout: .seconds(idleTimeout))
        serverConfiguration.tlsCertificate = certificate
        serverConfiguration.trustedCertificates = trusted
        ServingTLS.warnIfPlaintext(program: "serve", bind: bind, certificate: certificate)
        let server = CouchServer(configuration: serverConfiguration, logger: logger)
        let boundPort: Int
        do {
            boundPort = try await server.start(handleSignals: true)
        } catch {
            FileHandle.standardError.write(Data("recipes serve: \(error)\n".utf8))
            throw ExitCode.failure
        }
        if credentials == nil, !allowAnonymous {
            FileHandle.standardError.write(Data(
                "recipes serve: no --user given and --allow-anonymous-reads: serving read-only.\n".utf8))
        }
        let host = bind.contains(":") ? "[\(bind)]" : bind
        // Written straight to the file descriptor: scripts wait for this line through a pipe.
        FileHandle.standardOutput.write(Data("listening on \(ServingTLS.scheme(certificate))://\(host):\(boundPort)\n".utf8))
        try await server.waitUntilStopped()
    }

    /// `--add-user`: writes the account and exits, printing whether it was created or updated
    /// (never the password).
    private func addAccount(_ name: String) async throws {
        let secret: String
        do {
            secret = try PasswordFile.read(URL(fileURLWithPath: passwordFile ?? ""))
        } catch {
            throw ValidationError(error.description)
        }
        let roleList = (roles ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? Self.defaultDataDirectory()
        do {
            let change = try await CouchServer.addUser(name: name, password: secret, roles: roleList, dataDirectory: directory)
            print("\(change == .created ? "created" : "updated") account \(name)")
        } catch {
            FileHandle.standardError.write(Data("recipes serve: \(error)\n".utf8))
            throw ExitCode(65)
        }
    }
}
