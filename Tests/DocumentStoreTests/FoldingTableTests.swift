import Foundation
import Testing
@testable import DocumentFormat

/// `LatinFolding` folds the Latin range without Foundation; folded keys are stored in
/// indexes, so it must give exactly what Foundation's folding gives, or lookups of existing
/// stores would miss.
@Suite("Text folding: the Latin table agrees with Foundation")
struct FoldingTableTests {
    /// The scalars the table decides for itself.
    static let domain: [Unicode.Scalar] = (Array(0x00...0x7F) + Array(0xA0...0x24F) + Array(0x2010...0x205E))
        .compactMap { Unicode.Scalar(UInt32($0)) }

    @Test("every scalar of the table folds as Foundation folds it")
    func everyScalar() {
        for scalar in Self.domain {
            let text = String(scalar)
            #expect(LatinFolding.fold(text) == text.folding(options: .diacriticInsensitive, locale: nil),
                    "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
    }

    @Test("random texts of the table's scalars fold as Foundation folds them, and lower-cased as before")
    func randomTexts() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 1...12, using: &generator) { scalars.append(Self.domain.randomElement(using: &generator)!) }
            let text = String(scalars)
            #expect(TextFolding.fold(text) == TextFolding.foundationFold(text), "\(text.unicodeScalars.map { $0.value })")
        }
    }

    @Test("texts with a scalar outside the table are left to Foundation, with the same result")
    func outsideTheTable() {
        for text in ["Cre\u{300}me", "Crème brûlée", "Smørrebrød", "Ærøskøbing", "Ǣ and ǽ", "naïve – “café”", "Ὀδυσσεύς", "Łódź", "ﬁsh", "Ａｐｐｌｅ", "180°C ½ cup"] {
            #expect(TextFolding.fold(text) == TextFolding.foundationFold(text), "\(text)")
        }
        #expect(LatinFolding.fold("Cre\u{300}me") == nil)
        #expect(LatinFolding.fold("Ὀδυσσεύς") == nil)
        #expect(TextFolding.fold("Crème Brûlée") == "creme brulee")
    }
}
