/// The EXIF orientation (tag 0x0112) of a JPEG: how the stored pixels must be turned or mirrored
/// to show the photo upright. Phone cameras store the sensor image as is and record the turn
/// here, so a thumbnail without it would lie on its side.
enum ExifOrientation: Int, Sendable, CaseIterable {
    /// 1: stored upright.
    case normal = 1
    /// 2: mirrored left to right.
    case mirrored = 2
    /// 3: upside down (rotate 180°).
    case rotated180 = 3
    /// 4: mirrored top to bottom.
    case flippedVertically = 4
    /// 5: mirrored along the top-left to bottom-right diagonal.
    case transposed = 5
    /// 6: rotate 90° clockwise to display.
    case rotated90Clockwise = 6
    /// 7: mirrored along the top-right to bottom-left diagonal.
    case transversed = 7
    /// 8: rotate 90° counter-clockwise to display.
    case rotated90CounterClockwise = 8

    /// True when displaying the photo swaps its width and height (orientations 5–8).
    var swapsDimensions: Bool { rawValue >= 5 }

    /// Reads the orientation from the first APP1 "Exif" segment of a JPEG, walking the markers
    /// before the first scan; anything missing, malformed or out of range counts as `.normal`.
    static func read(fromJPEG bytes: UnsafeRawBufferPointer) -> ExifOrientation {
        let count = bytes.count
        guard count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return .normal }
        var offset = 2
        while offset + 1 < count {
            guard bytes[offset] == 0xFF else { return .normal }
            var markerOffset = offset + 1
            while markerOffset < count, bytes[markerOffset] == 0xFF { markerOffset += 1 } // fill bytes
            guard markerOffset < count else { return .normal }
            let marker = bytes[markerOffset]
            offset = markerOffset + 1
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { continue } // no length field
            if marker == 0xD9 || marker == 0xDA { return .normal } // end of image or start of scan
            guard offset + 2 <= count else { return .normal }
            let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
            guard length >= 2, length <= count - offset else { return .normal }
            if marker == 0xE1 {
                let segment = UnsafeRawBufferPointer(rebasing: bytes[(offset + 2)..<(offset + length)])
                if let orientation = fromExifSegment(segment) { return orientation }
            }
            offset += length
        }
        return .normal
    }

    /// Parses an APP1 payload ("Exif\0\0" + TIFF) and returns the IFD0 orientation, if present.
    static func fromExifSegment(_ segment: UnsafeRawBufferPointer) -> ExifOrientation? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00] // "Exif\0\0"
        guard segment.count >= header.count + 8, segment.prefix(header.count).elementsEqual(header) else {
            return nil
        }
        let tiff = UnsafeRawBufferPointer(rebasing: segment[header.count...])
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false // "II"
        case (0x4D, 0x4D): bigEndian = true // "MM"
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at <= tiff.count - 2 else { return nil }
            let a = Int(tiff[at]), b = Int(tiff[at + 1])
            return bigEndian ? a << 8 | b : b << 8 | a
        }
        func u32(_ at: Int) -> Int? {
            guard let first = u16(at), let second = u16(at + 2) else { return nil }
            return bigEndian ? first << 16 | second : second << 16 | first
        }
        guard u16(2) == 42, let ifd = u32(4), let entries = u16(ifd) else { return nil }
        for index in 0..<entries {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry), let type = u16(entry + 2), let itemCount = u32(entry + 4) else { return nil }
            guard tag == 0x0112 else { continue }
            guard type == 3, itemCount >= 1, let value = u16(entry + 8) else { return nil } // SHORT
            return ExifOrientation(rawValue: value)
        }
        return nil
    }
}
