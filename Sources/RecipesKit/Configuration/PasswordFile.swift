public import Foundation

/// Reads a password from a file, the one way every command does (`--password-file`,
/// `--new-password-file`, `serve --password-file`): the first line is the password, without
/// its line ending, LF or CR LF (a file saved on Windows), and the rest of the file is
/// ignored. Spaces are kept: they may be part of the password.
public enum PasswordFile {
    /// Why a password file could not give a password; each message names the file and the fix.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The path names a folder.
        case isDirectory(path: String)
        /// The file cannot be read (missing, permissions); `reason` is the system's.
        case unreadable(path: String, reason: String)
        /// The file is not UTF-8 text.
        case notText(path: String)
        /// The first line is empty.
        case empty(path: String)

        /// One line naming the file, the cause and the fix.
        public var description: String {
            switch self {
            case .isDirectory(let path):
                "the password file \(path) is a directory; give the file whose first line is the password"
            case .unreadable(let path, let reason):
                "cannot read the password file \(path): \(reason); check the path and its permissions"
            case .notText(let path):
                "the password file \(path) is not UTF-8 text; write the password on its first line"
            case .empty(let path):
                "the password file \(path) is empty; write the password on its first line"
            }
        }
    }

    /// The largest password file read: a password is a line, and a wrong path (a disk image)
    /// must not be read whole.
    public static let maximumBytes = 64 * 1024

    /// The password on the first line of the file at `url`.
    public static func read(_ url: URL) throws(Failure) -> String {
        let path = url.path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .isDirectory(path: path)
        }
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maximumBytes) ?? Data()
        } catch {
            throw .unreadable(path: path, reason: Self.reason(error))
        }
        guard let text = String(data: data, encoding: .utf8) else { throw .notText(path: path) }
        return try password(in: text, path: path)
    }

    /// The first line of `text` without its line ending (LF, CR LF or a lone CR).
    static func password(in text: String, path: String) throws(Failure) -> String {
        // Scalars, not Characters: Swift reads "\r\n" as one Character, which "\n" is not.
        let scalars = text.unicodeScalars
        let end = scalars.firstIndex { $0 == "\n" || $0 == "\r" } ?? scalars.endIndex
        let line = String(scalars[..<end])
        guard !line.isEmpty else { throw .empty(path: path) }
        return line
    }

    private static func reason(_ error: any Error) -> String {
        let code = (error as NSError).userInfo[NSUnderlyingErrorKey].map { ($0 as? NSError)?.code ?? 0 } ?? 0
        if code == Int(ENOENT) || (error as NSError).code == NSFileReadNoSuchFileError || (error as NSError).code == NSFileNoSuchFileError {
            return "no such file"
        }
        if code == Int(EACCES) || (error as NSError).code == NSFileReadNoPermissionError { return "permission denied" }
        return (error as NSError).localizedDescription
    }
}
