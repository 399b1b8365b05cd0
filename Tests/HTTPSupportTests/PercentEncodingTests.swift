import HTTPSupport
import Testing

/// The one percent-encoder, for path segments and query values.
@Suite struct PercentEncodingTests {
    @Test(arguments: [
        ("recipes", "recipes"),
        ("a b", "a%20b"),
        ("a/b", "a%2Fb"),
        ("a+b", "a%2Bb"),
        ("x%y", "x%25y"),
        ("héllo", "h%C3%A9llo"),
        ("日本", "%E6%97%A5%E6%9C%AC"),
        ("-._~!$&'()*,;=:@", "-._~!$&'()*,;=:@"),
        ("a?b#c", "a%3Fb%23c"),
    ])
    func pathSegment(_ text: String, _ expected: String) {
        #expect(PercentEncoding.pathSegment(text) == expected)
    }

    @Test(arguments: [
        ("Dessert", "Dessert"),
        ("a&b=c", "a%26b%3Dc"),
        ("red lentil", "red%20lentil"),
        ("a+b", "a%2Bb"),
        ("Entrée", "Entr%C3%A9e"),
        ("-._~", "-._~"),
        ("1-abc/x", "1-abc%2Fx"),
    ])
    func queryValue(_ text: String, _ expected: String) {
        #expect(PercentEncoding.queryValue(text) == expected)
    }
}
