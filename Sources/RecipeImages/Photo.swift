public import Foundation

/// Checks uploaded photos and makes thumbnails of them. Uploads are untrusted: the type comes
/// from the content, the whole image is decoded so truncated files are refused, and sizes are
/// checked before memory is taken. All functions are pure and safe to call from many tasks.
public enum Photo {
    /// The largest upload accepted, in bytes; bigger files are refused before any decoding.
    public static let maximumBytes = 10_000_000
    /// The most pixels (width × height) accepted; checked from the header before any pixel
    /// buffer is allocated, so a tiny file claiming a gigantic image cannot exhaust memory.
    public static let maximumPixels = 40_000_000
    /// The largest thumbnail side honoured (the JPEG format's own limit); larger `maxSide`
    /// values are treated as this.
    public static let maximumThumbnailSide = 65_500

    /// Sniffs the magic bytes and decodes the whole image (so a truncated file is refused).
    /// Returns the format and the size as displayed (EXIF orientations 5–8 swap width and
    /// height), or throws the `PhotoProblem` to show to the person uploading.
    public static func check(_ data: Data) throws(PhotoProblem) -> PhotoInfo {
        try checkSize(data)
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(PhotoProblem) -> PhotoInfo in
                let format = try PhotoSniffer.format(of: bytes)
                let size = try PhotoCodec.check(bytes, format: format, maximumPixels: maximumPixels)
                let swaps = format == .jpeg && ExifOrientation.read(fromJPEG: bytes).swapsDimensions
                return PhotoInfo(format: format,
                                 width: swaps ? size.height : size.width,
                                 height: swaps ? size.width : size.height)
            }
        }
        return try result.get()
    }

    /// A JPEG thumbnail that fits in maxSide×maxSide, keeping the aspect ratio, upright (EXIF
    /// orientation applied), alpha composited on white, never upscaled. The output is a baseline
    /// JPEG without EXIF, so every viewer shows it the same way. It decodes the whole input, so
    /// it refuses the same damaged uploads `check` does. `maxSide` below 1 counts as 1 and
    /// `quality` is clamped to 1...100.
    public static func thumbnail(of data: Data, maxSide: Int = 320, quality: Int = 82) throws(PhotoProblem) -> Data {
        let image = try uprightPixels(of: data, maxSide: maxSide)
        return try PhotoCodec.encodeJPEG(image, quality: quality)
    }

    /// The thumbnail's pixels before JPEG encoding: decoded at reduced size, then turned upright.
    static func uprightPixels(of data: Data, maxSide: Int) throws(PhotoProblem) -> RGBImage {
        try checkSize(data)
        let side = min(max(maxSide, 1), maximumThumbnailSide)
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(PhotoProblem) -> RGBImage in
                let format = try PhotoSniffer.format(of: bytes)
                let image = try PhotoCodec.thumbnailPixels(bytes, format: format, maxSide: side, maximumPixels: maximumPixels)
                let orientation = format == .jpeg ? ExifOrientation.read(fromJPEG: bytes) : .normal
                return image.oriented(orientation)
            }
        }
        return try result.get()
    }

    /// Refuses empty and oversized uploads before looking at their content.
    private static func checkSize(_ data: Data) throws(PhotoProblem) {
        if data.isEmpty { throw .empty }
        if data.count > maximumBytes { throw .tooLarge(bytes: data.count, limit: maximumBytes) }
    }
}
