import Crypto
import Foundation

/// The web app's stylesheet and script, read once from the module's resources, each served
/// under an address that carries a digest of its bytes, so browsers keep them until they
/// change.
struct WebAssets: Sendable {
    /// One file.
    struct Asset: Sendable {
        /// Its bytes.
        let data: Data
        /// Its `Content-Type`.
        let contentType: String
        /// A digest of the bytes (the entity tag and the address's `v`).
        let tag: String
    }

    /// `style.css`.
    let style: Asset
    /// `app.js`.
    let script: Asset

    /// Why the assets could not be read (a broken install).
    struct MissingAsset: Error, CustomStringConvertible {
        /// The file's name.
        let name: String
        /// One sentence.
        var description: String { "the web app's \(name) is missing from the program's resources; reinstall recipes" }
    }

    /// Reads both files from the bundle.
    static func load() throws -> WebAssets {
        WebAssets(style: try asset("style", "css", type: "text/css; charset=utf-8"),
                  script: try asset("app", "js", type: "text/javascript; charset=utf-8"))
    }

    private static func asset(_ name: String, _ ext: String, type: String) throws -> Asset {
        guard let url = Bundle.module.url(forResource: name, withExtension: ext), let data = try? Data(contentsOf: url) else {
            throw MissingAsset(name: "\(name).\(ext)")
        }
        let tag = Base64URL.encode(Data(SHA256.hash(data: data).prefix(12)))
        return Asset(data: data, contentType: type, tag: tag)
    }

    /// The stylesheet's address.
    var styleURL: String { "/assets/style.css?v=\(style.tag)" }
    /// The script's address.
    var scriptURL: String { "/assets/app.js?v=\(script.tag)" }

    /// The asset at `path` (`style.css`, `app.js`), or `nil`.
    func asset(named path: String) -> Asset? {
        switch path {
        case "style.css": style
        case "app.js": script
        default: nil
        }
    }
}
