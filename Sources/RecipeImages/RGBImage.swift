/// Tightly packed 8-bit RGB pixels, row by row from the top; the small in-memory picture a
/// thumbnail is made from, so that orientation can be applied in Swift between decode and encode.
struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    var width: Int
    /// Height in pixels.
    var height: Int
    /// `width * height * 3` bytes: red, green, blue for each pixel.
    var pixels: [UInt8]

    /// The red, green and blue values at column `x`, row `y` (both must be in range).
    func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let index = (y * width + x) * 3
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }

    /// The image turned and mirrored as `orientation` says, so that it shows upright.
    func oriented(_ orientation: ExifOrientation) -> RGBImage {
        if orientation == .normal { return self }
        let outWidth = orientation.swapsDimensions ? height : width
        let outHeight = orientation.swapsDimensions ? width : height
        var output = [UInt8](repeating: 0, count: pixels.count)
        for outY in 0..<outHeight {
            for outX in 0..<outWidth {
                let sourceX: Int, sourceY: Int
                switch orientation {
                case .normal: (sourceX, sourceY) = (outX, outY)
                case .mirrored: (sourceX, sourceY) = (width - 1 - outX, outY)
                case .rotated180: (sourceX, sourceY) = (width - 1 - outX, height - 1 - outY)
                case .flippedVertically: (sourceX, sourceY) = (outX, height - 1 - outY)
                case .transposed: (sourceX, sourceY) = (outY, outX)
                case .rotated90Clockwise: (sourceX, sourceY) = (outY, height - 1 - outX)
                case .transversed: (sourceX, sourceY) = (width - 1 - outY, height - 1 - outX)
                case .rotated90CounterClockwise: (sourceX, sourceY) = (width - 1 - outY, outX)
                }
                let from = (sourceY * width + sourceX) * 3
                let to = (outY * outWidth + outX) * 3
                output[to] = pixels[from]
                output[to + 1] = pixels[from + 1]
                output[to + 2] = pixels[from + 2]
            }
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: output)
    }
}
