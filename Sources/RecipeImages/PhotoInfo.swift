/// What `Photo.check` learned about an accepted photo, so the app can store its type and size
/// without decoding it again.
public struct PhotoInfo: Sendable, Equatable {
    /// The format found from the file's content.
    public var format: PhotoFormat
    /// The width in pixels as the photo is displayed: for a JPEG whose EXIF orientation turns it
    /// by 90° (orientations 5–8) this is the stored height.
    public var width: Int
    /// The height in pixels as the photo is displayed (after applying the EXIF orientation).
    public var height: Int

    /// Creates a description of a photo; the app normally gets one from `Photo.check`.
    public init(format: PhotoFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }
}
