import Crypto
import DocumentFormat
import DocumentStore
import DocumentIncrementalStore
import Foundation
import ObjectGraph

/// Serving a recipe's pictures.
extension RecipesStore {
    /// The entity tag of a recipe's photo or thumbnail, or `nil` when it has none: the
    /// attachment's digest, read from the document's metadata without the picture's bytes,
    /// so a browser's revalidation of a cached photo costs one indexed read.
    public func photoTag(ofRecipe id: String, _ kind: StoredPhoto.Kind) throws(RecipesError) -> String? {
        do {
            guard let (documentID, attachment) = try pictureLocation(ofRecipe: id, kind) else { return nil }
            guard let revision = try container.incrementalStore.readDatastore({ try $0.get(id: documentID) }), !revision.deleted else { return nil }
            if let info = revision.attachments[attachment] { return info.digest }
            return try photo(ofRecipe: id, kind)?.entityTag
        } catch let error as RecipesError {
            throw error
        } catch {
            throw RecipeBook.recipesError(error)
        }
    }

    /// A recipe's photo or thumbnail with its entity tag, or `nil` when the recipe, or that
    /// picture, is not there (or has not arrived yet from a sync).
    public func photo(ofRecipe id: String, _ kind: StoredPhoto.Kind) throws(RecipesError) -> StoredPhoto? {
        do {
            guard let (documentID, attachment) = try pictureLocation(ofRecipe: id, kind) else { return nil }
            let book = RecipeBook(context: container.newContext(name: "photo"))
            guard let recipe = try book.recipe(id: id) else { return nil }
            let bytes: Data? = switch kind {
            case .photo: recipe.image?.data
            case .thumbnail: recipe.thumbnailImage
            }
            guard let bytes else { return nil }
            let digest = try container.incrementalStore.readDatastore { try $0.get(id: documentID) }?.attachments[attachment]?.digest
            let tag = digest ?? "sha256-" + Data(SHA256.hash(data: bytes)).base64EncodedString()
            return StoredPhoto(data: bytes, mimeType: StoredPhoto.mimeType(of: bytes), entityTag: tag)
        } catch let error as RecipesError {
            throw error
        } catch {
            throw RecipeBook.recipesError(error)
        }
    }

    /// The document and attachment name that hold a recipe's picture: the image's document
    /// and its `image` for the photo, the recipe's own document and its `thumbnailImage` for
    /// the thumbnail (attachments are named after their attribute).
    private func pictureLocation(ofRecipe id: String, _ kind: StoredPhoto.Kind) throws -> (String, String)? {
        let book = RecipeBook(context: container.newContext(name: "photo"))
        guard let recipe = try book.recipe(id: id) else { return nil }
        switch kind {
        case .thumbnail:
            return (id, "thumbnailImage")
        case .photo:
            let image = recipe.image
            return image.map { ($0.documentID, "image") }
        }
    }
}
