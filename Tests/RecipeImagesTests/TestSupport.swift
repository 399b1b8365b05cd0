import TestSupport
import Foundation
import Testing
@testable import RecipeImages

/// Loads the fixture files bundled with the tests.
enum Fixture {
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
                               "missing fixture \(name)")
        return try Data(contentsOf: url)
    }

    static let pngNames = ["rgba-alpha.png", "palette.png", "rgb16.png", "gray.png", "interlaced.png", "noise.png"]
}


/// Helpers that build and inspect JPEG byte streams in tests.
enum JPEGBytes {
    /// An APP1 segment holding an Exif TIFF block whose IFD0 has an ImageWidth tag followed by
    /// the Orientation tag.
    static func exifSegment(orientation: UInt16, bigEndian: Bool) -> [UInt8] {
        func u16(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: UInt32) -> [UInt8] {
            bigEndian ? u16(UInt16(value >> 16)) + u16(UInt16(value & 0xFFFF))
                      : u16(UInt16(value & 0xFFFF)) + u16(UInt16(value >> 16))
        }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8)
        tiff += u16(2) // two entries
        tiff += u16(0x0100) + u16(4) + u32(1) + u32(1234) // ImageWidth, LONG
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + [0, 0] // Orientation, SHORT
        tiff += u32(0) // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// The JPEG with `segment` inserted right after SOI.
    static func inserting(_ segment: [UInt8], into jpeg: Data) -> Data {
        var bytes = [UInt8](jpeg)
        bytes.insert(contentsOf: segment, at: 2)
        return Data(bytes)
    }

    /// The markers before the first scan, in order (e.g. 0xE0, 0xDB, 0xC0, 0xC4, 0xDA).
    static func markers(of jpeg: Data) -> [UInt8] {
        let bytes = [UInt8](jpeg)
        var result: [UInt8] = []
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xFF {
            let marker = bytes[offset + 1]
            result.append(marker)
            if marker == 0xDA { break }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return result
    }

    /// The JPEG with its SOF0 width and height replaced (to fake a huge image header).
    static func replacingSize(of jpeg: Data, width: UInt16, height: UInt16) -> Data {
        var bytes = [UInt8](jpeg)
        var offset = 2
        while offset + 9 <= bytes.count, bytes[offset] == 0xFF {
            if bytes[offset + 1] == 0xC0 {
                bytes[offset + 5] = UInt8(height >> 8); bytes[offset + 6] = UInt8(height & 0xFF)
                bytes[offset + 7] = UInt8(width >> 8); bytes[offset + 8] = UInt8(width & 0xFF)
                break
            }
            offset += 2 + (Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3]))
        }
        return Data(bytes)
    }

    /// A JPEG of `width`×`height` whose left half is red and right half blue, made with the
    /// module's own encoder, so orientation can be verified pixel by pixel.
    static func redLeftBlueRight(width: Int, height: Int) throws -> Data {
        var pixels: [UInt8] = []
        for _ in 0..<height {
            for x in 0..<width { pixels += x < width / 2 ? [255, 0, 0] : [0, 0, 255] }
        }
        return try PhotoCodec.encodeJPEG(RGBImage(width: width, height: height, pixels: pixels), quality: 95)
    }
}

/// Helpers for PNG byte streams in tests.
enum PNGBytes {
    /// The byte range of the first IDAT chunk's data.
    static func firstIDAT(in png: Data) -> Range<Int>? {
        let bytes = [UInt8](png)
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if type == "IDAT" { return (offset + 8)..<(offset + 8 + length) }
            offset += 12 + length
        }
        return nil
    }
}

/// True when the colour is within `tolerance` of the expected one on every channel.
func isClose(_ color: (red: UInt8, green: UInt8, blue: UInt8), _ expected: (Int, Int, Int), tolerance: Int = 0) -> Bool {
    abs(Int(color.red) - expected.0) <= tolerance && abs(Int(color.green) - expected.1) <= tolerance
        && abs(Int(color.blue) - expected.2) <= tolerance
}
