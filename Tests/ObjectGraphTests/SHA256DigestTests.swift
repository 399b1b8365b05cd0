import Crypto
import Foundation
import Testing
@testable import ObjectGraph

/// ObjectGraph's own SHA-256, which model version hashes are made of: it must agree with
/// swift-crypto byte for byte, or stores written before it would no longer match their model.
@Suite("SHA-256 of version hashes")
struct SHA256DigestTests {
    @Test("the FIPS 180-4 examples")
    func standardVectors() {
        func hex(_ text: String) -> String { SHA256Digest.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined() }
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("equal to swift-crypto for every length from 0 to 300 bytes (padding crosses block edges)")
    func agreesWithSwiftCrypto() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(SHA256Digest.hash(bytes) == Array(SHA256.hash(data: Data(bytes))), "length \(length)")
        }
    }

    @Test("the hex text version hashes are made of equals swift-crypto's, non-ASCII names included")
    func hexVersionHash() {
        for text in ["model|", "attribute|name|String|optional=false|transient=false", "entity|Crème|abstract=false|parent=|", "😀|Ω"] {
            let reference = SHA256.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(ModelBuilder.sha256(text) == reference)
        }
    }
}
