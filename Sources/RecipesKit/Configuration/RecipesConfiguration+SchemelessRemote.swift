extension RecipesConfiguration {
    /// Whether `text`, which has no `scheme://`, reads as a server address rather than a
    /// path: its first component holds credentials (`user:password@host…`) or ends in a port
    /// (`host:5984/db`). Paths starting with `/`, `.` or `~` never do. Such a value is
    /// refused as a remote rather than taken for a file name that would keep the password.
    public static func looksLikeURLWithoutScheme(_ text: String) -> Bool {
        guard !text.contains("://"), let first = text.first, !"/.~".contains(first) else { return false }
        let component = text.prefix { $0 != "/" }
        if component.contains("@") { return true }
        guard let colon = component.lastIndex(of: ":") else { return false }
        let port = component[component.index(after: colon)...]
        return !port.isEmpty && port.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
