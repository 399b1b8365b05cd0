import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import RecipesKit
import HTTPSupport

/// Pictures, static assets and the live-update event stream.
extension WebRoutes {
    func picture(_ request: Request, _ visit: Visit, id: String, kind: StoredPhoto.Kind) async throws -> Response {
        let store = book.store
        let thumbnails = self.thumbnails
        let wanted = request.headers[.ifNoneMatch]
        let found: (tag: String, photo: StoredPhoto?)? = try await book.read { _ in
            switch kind {
            case .photo:
                guard let tag = try store.photoTag(ofRecipe: id, .photo) else { return nil }
                if WebResponse.matches(wanted, tag: tag) { return (tag, nil) }
                return try store.photo(ofRecipe: id, .photo).map { ($0.entityTag, $0) }
            case .thumbnail:
                if let tag = try store.photoTag(ofRecipe: id, .thumbnail) {
                    if WebResponse.matches(wanted, tag: tag) { return (tag, nil) }
                    return try store.photo(ofRecipe: id, .thumbnail).map { ($0.entityTag, $0) }
                }
                // No thumbnail stored (a recipe written before thumbnails were made, or by
                // another program): one made from the photo, kept in memory.
                guard let photoTag = try store.photoTag(ofRecipe: id, .photo) else { return nil }
                let tag = "thumb-" + photoTag
                if WebResponse.matches(wanted, tag: tag) { return (tag, nil) }
                guard let made = try thumbnails.thumbnail(forPhotoTag: photoTag, make: { try store.photo(ofRecipe: id, .photo)?.data })
                else { return nil }
                return (tag, StoredPhoto(data: made, mimeType: "image/jpeg", entityTag: tag))
            }
        }
        guard let found else {
            return WebResponse.text(status: .notFound, "This recipe has no \(kind == .photo ? "photo" : "thumbnail").\n")
        }
        return WebResponse.picture(found.photo, tag: found.tag)
    }

    func asset(_ request: Request, name: String) -> Response {
        guard let asset = assets.asset(named: name) else { return WebResponse.text(status: .notFound, "No such file.\n") }
        return WebResponse.asset(asset, ifNoneMatch: request.headers[.ifNoneMatch])
    }

    /// Open event streams at most: each holds a connection and a task.
    static let maximumEventStreams = 1000

    func events() -> Response {
        guard feed.subscriberCount < Self.maximumEventStreams else {
            return WebResponse.text(status: .serviceUnavailable, "Too many pages are open; live updates resume when some close.\n")
        }
        return WebResponse.eventStream(feed.subscribe())
    }
}
