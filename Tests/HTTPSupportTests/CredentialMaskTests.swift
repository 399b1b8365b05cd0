import HTTPSupport
import Testing

/// The one credential masker, on addresses and on error texts with addresses inside.
@Suite struct CredentialMaskTests {
    @Test(arguments: [
        ("http://admin:s3cret@127.0.0.1:5984/db", "http://admin:***@127.0.0.1:5984/db"),
        ("https://user:p@ss@host/db", "https://user:***@host/db"),
        ("https://user@host/db", "https://user@host/db"),
        ("https://host/db/a:b@c", "https://host/db/a:b@c"),
        ("couchdb://u:pw@h", "couchdb://u:***@h"),
        ("admin:s3cret@127.0.0.1:45984/recipes", "admin:***@127.0.0.1:45984/recipes"),
        ("not a url", "not a url"),
        ("", ""),
        ("Failed to connect to http://a:b@h:1/db: refused; retried https://c:d@k",
         "Failed to connect to http://a:***@h:1/db: refused; retried https://c:***@k"),
        ("http://a:b@h then x@y", "http://a:***@h then x@y"),
        ("http://a:***@h", "http://a:***@h"),
        ("http://:@h", "http://:***@h"),
    ])
    func masksEveryPassword(_ text: String, _ expected: String) {
        #expect(CredentialMask.masked(text) == expected)
    }
}

/// Paths are masked component by component, so a folder named after an address does not
/// show its password.
@Suite struct CredentialMaskPathTests {
    @Test func masksEachComponent() {
        #expect(CredentialMask.maskedPath("/home/me/admin:s3cret@h:1/recipes") == "/home/me/admin:***@h:1/recipes")
        #expect(CredentialMask.maskedPath("/var/lib/recipes.sqlite") == "/var/lib/recipes.sqlite")
    }
}
