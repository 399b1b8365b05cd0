public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The identity of an open store's file (device and inode), to tell whether the path still
/// names the file a long-running command opened: a file deleted, replaced (a backup restored
/// with `mv`) or truncated under a running process is not seen by SQLite, which keeps
/// reading, and writing, the file it has open, so the command would show stale data and
/// other processes writing to the path would meet a store that is not theirs.
public struct StoreFileIdentity: Sendable, Equatable {
    /// What happened to the store's path since it was opened.
    public enum Change: Sendable, Equatable, CustomStringConvertible {
        /// Nothing is at the path any more.
        case deleted(path: String)
        /// Another file is at the path.
        case replaced(path: String)
        /// The file at the path was cut short or overwritten: it no longer starts with an
        /// SQLite header.
        case truncated(path: String)

        /// One line naming what happened and what to do.
        public var description: String {
            switch self {
            case .deleted(let path):
                "the store \(path) was deleted while it was open; run the command again to use a new store there"
            case .replaced(let path):
                "the store \(path) was replaced by another file while it was open; run the command again to use the file now there"
            case .truncated(let path):
                "the store \(path) was truncated or overwritten while it was open and is no longer an SQLite database; restore it from a backup"
            }
        }
    }

    /// The store file.
    public let url: URL
    private let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The identity of the file at `url` now; call it right after opening the store.
    /// - Throws: ``RecipesError/store(_:cause:)`` when the file cannot be examined.
    public init(url: URL) throws(RecipesError) {
        self.url = url
        path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw .store("cannot examine the store \(path): \(String(cString: strerror(errno))); check the path and its permissions")
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Checks the path every `interval` and returns the first ``change()`` seen, or `nil`
    /// once the calling task is cancelled: what a long-running command runs beside its work,
    /// to stop that work when the store goes away.
    public func firstChange(every interval: Duration) async -> Change? {
        while true {
            do { try await Task.sleep(for: interval) } catch { return nil }
            if let change = change() { return change }
        }
    }

    /// Runs ``firstChange(every:)`` beside `work` and cancels `work` when the store goes
    /// away; the returned task ends with the change (then `work` was cancelled), or with `nil`
    /// once it is cancelled itself (cancel it when `work` ends on its own).
    public func guarding<Success: Sendable, Failure: Error>(_ work: Task<Success, Failure>,
                                                           every interval: Duration) -> Task<Change?, Never> {
        Task {
            let change = await firstChange(every: interval)
            if change != nil { work.cancel() }
            return change
        }
    }

    /// The first 16 bytes of every SQLite database file.
    private static let header = Array("SQLite format 3\0".utf8)

    /// What happened to the path since ``init(url:)``, or `nil` when it still names the same
    /// file and that file still starts as an SQLite database. One `stat` and a 16-byte read.
    public func change() -> Change? {
        var info = stat()
        guard stat(path, &info) == 0 else { return .deleted(path: path) }
        guard UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return .replaced(path: path) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return errno == ENOENT ? .deleted(path: path) : nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: Self.header.count)
        let count = read(descriptor, &bytes, bytes.count)
        return count == bytes.count && bytes == Self.header ? nil : .truncated(path: path)
    }
}
