import Foundation
import RecipeImages
import Synchronization

/// Thumbnails made from photos that have none stored (recipes written by an older version,
/// or synced from another program), kept in memory by the photo's tag so that the book's
/// grid never ships a full-size photo and a GET never writes to the store.
final class ThumbnailCache: Sendable {
    /// Bytes kept at most; the oldest entries go first.
    static let byteLimit = 32 * 1024 * 1024
    private let state = Mutex<(entries: [String: Data], order: [String], bytes: Int)>(([:], [], 0))

    /// The thumbnail of the photo tagged `tag`, made from `make()`'s bytes on first use;
    /// `nil` when there is no photo.
    /// - Throws: what `make` throws; a photo that cannot be decoded gives `nil`.
    func thumbnail(forPhotoTag tag: String, make: () throws -> Data?) throws -> Data? {
        if let kept = state.withLock({ $0.entries[tag] }) { return kept }
        guard let photo = try make(), let made = try? Photo.thumbnail(of: photo) else { return nil }
        state.withLock { state in
            guard state.entries[tag] == nil else { return }
            state.entries[tag] = made
            state.order.append(tag)
            state.bytes += made.count
            while state.bytes > Self.byteLimit, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.bytes -= state.entries.removeValue(forKey: oldest)?.count ?? 0
            }
        }
        return made
    }
}
