/// The one administrator account `recipes serve` knows: its name and password.
///
/// `description` masks the password so the value can be logged safely.
public struct ServerCredentials: Sendable, Equatable, CustomStringConvertible {
    /// The user name clients log in with.
    public var user: String
    /// The password; never printed.
    public var password: String

    /// Makes credentials from a user name and password.
    public init(user: String, password: String) {
        self.user = user
        self.password = password
    }

    /// `user:***`.
    public var description: String { "\(user):***" }

    /// Whether `user`/`password` match, comparing the password in constant time.
    func matches(user: String, password: String) -> Bool {
        let expected = Array(self.password.utf8)
        let given = Array(password.utf8)
        var difference = expected.count ^ given.count
        for index in 0..<max(expected.count, given.count) {
            let a = index < expected.count ? expected[index] : 0
            let b = index < given.count ? given[index] : 0
            difference |= Int(a ^ b)
        }
        return difference == 0 && user == self.user
    }
}
