import Crypto
public import Foundation
public import ManagedModel

extension VersionDigest {
    /// Hex SHA-256: the version hashes stores record in their metadata and compare at open.
    public static let sha256 = VersionDigest { text in
        // Hex by table: `String(format:)` per byte dominated loading a model.
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        // The string's own UTF-8 bytes where it has them: `Data(text.utf8)` looks up the
        // view's conformances at each start.
        var text = text
        let digest = text.withUTF8 { SHA256.hash(data: UnsafeRawBufferPointer($0)) }
        for byte in digest {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}

extension ObjectModel {
    /// Loads a model from a `.xcdatamodel` folder or its `contents` XML file, or the
    /// current version of a `.xcdatamodeld` folder, with SHA-256 version hashes.
    /// - Throws: `ModelError` naming file, line and element when the model is invalid.
    public static func load(contentsOf url: URL) throws -> ObjectModel {
        try load(contentsOf: url, digest: .sha256)
    }

    /// Loads a model from XML bytes in Xcode's model format, with SHA-256 version hashes;
    /// `path` names it in errors.
    public static func load(xml: Data, name: String, path: String) throws -> ObjectModel {
        try load(xml: xml, name: name, path: path, digest: .sha256)
    }

    /// Builds a model from a version's definitions (such as those `entity-codegen` compiles
    /// into a program), with SHA-256 version hashes; `path` names it in errors.
    /// - Throws: `ModelError` naming file, line and element when the model is invalid.
    public static func build(_ definition: ModelDefinition, name: String, path: String) throws -> ObjectModel {
        try build(definition, name: name, path: path, digest: .sha256)
    }
}

extension ModelVersionSet {
    /// Loads every version of a `.xcdatamodeld` folder, with SHA-256 version hashes, and
    /// picks the current one (see `load(contentsOf:digest:)`).
    /// - Throws: `ModelError` for an invalid version or a missing/invalid current version.
    public static func load(contentsOf url: URL) throws -> ModelVersionSet {
        try load(contentsOf: url, digest: .sha256)
    }
}
