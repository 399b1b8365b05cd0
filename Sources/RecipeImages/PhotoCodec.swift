import CPhotoCodec

import Foundation

/// The Swift face of the CPhotoCodec shim: calls into libjpeg/libpng through C (where their
/// longjmp error handling is caught) and turns the C status codes into `PhotoProblem`s.
enum PhotoCodec {
    /// Decodes the whole stream to prove it is complete and returns its stored width and height.
    static func check(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat, maximumPixels: Int) throws(PhotoProblem) -> (width: Int, height: Int) {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .empty }
        var status = rp_status()
        let limit = Int64(clamping: maximumPixels)
        switch format {
        case .jpeg: _ = rp_jpeg_check(base, bytes.count, limit, &status)
        case .png: _ = rp_png_check(base, bytes.count, limit, &status)
        }
        try problem(for: status, format: format, maximumPixels: maximumPixels)
        return (Int(status.width), Int(status.height))
    }

    /// Decodes the photo into RGB pixels whose longer side is at most `maxSide` (never enlarged),
    /// in stored orientation, with any alpha composited on white.
    static func thumbnailPixels(_ bytes: UnsafeRawBufferPointer, format: PhotoFormat, maxSide: Int, maximumPixels: Int) throws(PhotoProblem) -> RGBImage {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { throw .empty }
        var status = rp_status()
        var pixels = rp_pixels()
        let limit = Int64(clamping: maximumPixels)
        let side = Int32(clamping: maxSide)
        switch format {
        case .jpeg: _ = rp_jpeg_thumbnail_pixels(base, bytes.count, limit, side, &pixels, &status)
        case .png: _ = rp_png_thumbnail_pixels(base, bytes.count, limit, side, &pixels, &status)
        }
        defer { rp_free(pixels.rgb) }
        try problem(for: status, format: format, maximumPixels: maximumPixels)
        let width = Int(pixels.width), height = Int(pixels.height)
        guard let rgb = pixels.rgb, width > 0, height > 0 else {
            throw .damaged(format: format, reason: "no pixels were decoded")
        }
        let buffer = UnsafeBufferPointer(start: rgb, count: width * height * 3)
        return RGBImage(width: width, height: height, pixels: Array(buffer))
    }

    /// Encodes pixels as a baseline JFIF JPEG without EXIF, so it shows upright everywhere.
    static func encodeJPEG(_ image: RGBImage, quality: Int) throws(PhotoProblem) -> Data {
        var status = rp_status()
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let q = Int32(clamping: min(max(quality, 1), 100))
        image.pixels.withUnsafeBufferPointer { pixels in
            _ = rp_jpeg_encode_rgb(pixels.baseAddress, Int32(clamping: image.width), Int32(clamping: image.height), q, &output, &size, &status)
        }
        defer { rp_free(output) }
        guard status.code == Int32(RP_OK.rawValue), let output else {
            throw .damaged(format: .jpeg, reason: "the thumbnail could not be encoded: \(message(of: status))")
        }
        return Data(bytes: output, count: size)
    }

    /// Throws the `PhotoProblem` matching a failed C status; returns for success.
    private static func problem(for status: rp_status, format: PhotoFormat, maximumPixels: Int) throws(PhotoProblem) {
        switch UInt32(bitPattern: status.code) {
        case RP_OK.rawValue:
            return
        case RP_TOO_MANY_PIXELS.rawValue:
            throw .tooManyPixels(width: Int(status.width), height: Int(status.height), limit: maximumPixels)
        case RP_NO_MEMORY.rawValue:
            throw .damaged(format: format, reason: "there was not enough memory to decode it")
        default:
            let reason = message(of: status)
            throw .damaged(format: format, reason: reason.isEmpty ? "it could not be decoded" : reason)
        }
    }

    /// The NUL-terminated message of a status as a String.
    private static func message(of status: rp_status) -> String {
        withUnsafeBytes(of: status.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}
