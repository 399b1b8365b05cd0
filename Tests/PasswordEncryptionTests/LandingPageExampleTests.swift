import Foundation
import PasswordEncryption
import Testing

/// Runs the example on the PasswordEncryption catalog's landing page
/// (`Sources/PasswordEncryption/Documentation.docc/PasswordEncryption.md`). Change both together.
@Suite("Documentation: PasswordEncryption example")
struct LandingPageExampleTests {
    @Test func encryptThenDecrypt() throws {
        let encryptor = PasswordEncryptor(password: "correct horse battery staple")
        let message = try encryptor.encrypt(Data("Grandmother's version".utf8))
        let plaintext = try encryptor.decrypt(message)
        #expect(String(decoding: plaintext, as: UTF8.self) == "Grandmother's version")
        #expect(throws: RNCryptorError.self) {
            try PasswordEncryptor(password: "another password").decrypt(message)
        }
    }
}
