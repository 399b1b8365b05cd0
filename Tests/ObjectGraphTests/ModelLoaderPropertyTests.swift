import Foundation
import PropertyBased
import Testing
@testable import ObjectGraph
@testable import ManagedModel

/// Property tests of the XML model loader: mutations of the real recipes models and plain
/// garbage load as a model or throw `ModelError` naming the file and a line of it; the loader
/// never traps.
@Suite("Model loader properties")
struct ModelLoaderPropertyTests {
    /// The `contents` XML of every version of the recipes model.
    static let seeds: [String] = {
        let versions = (try? FileManager.default.contentsOfDirectory(
            at: TestSupport.recipesModeld, includingPropertiesForKeys: nil)) ?? []
        return versions.filter { $0.pathExtension == "xcdatamodel" }.sorted { $0.path < $1.path }.compactMap {
            try? String(contentsOf: $0.appendingPathComponent("contents"), encoding: .utf8)
        }
    }()

    /// Markup and values that reach the loader's checks.
    static let fragments: [String] = [
        "<entity name=\"Extra\">", "</entity>", "<attribute name=\"a\" attributeType=\"String\"/>",
        "<attribute name=\"n\" attributeType=\"Integer 16\" minValueString=\"99999\" maxValueString=\"-1e400\"/>",
        "<attribute name=\"d\" attributeType=\"Decimal\" defaultValueString=\"1e99999999\"/>",
        "<relationship name=\"r\" destinationEntity=\"Recipe\" inverseName=\"r\" inverseEntity=\"Nope\"/>",
        "<fetchIndex name=\"i\"><fetchIndexElement property=\"zz\" type=\"Binary\" order=\"descending\"/></fetchIndex>",
        "<userInfo><entry key=\"k\" value=\"v\"/></userInfo>", "<entry key=\"k\"/>", "<model>", "</model>", "<", ">", "/>",
        "\"", "=", "&amp;", "&bogus;", "&#0;", "&#x110000;", "<![CDATA[x]]>", "<!-- c -->", "<?pi x?>",
        "<!DOCTYPE m [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>", "&b;", "\n", "é", "\u{0}",
    ]

    /// Values for a mutated attribute: empty, wrong kinds, out of range, names of real things.
    static let values: [String] = [
        "", "YES", "NO", "true", "-1", "0", "99999999999999999999", "1e400", "-1e400", "nan", "inf", "0x10",
        "Recipe", "Ingredient", "RecipeType", "Image", "Integer 16", "Integer 64", "Decimal", "Date", "Boolean", "UUID",
        "URI", "Binary", "Transformable", "Cascade", "Deny", "No Action", "Bogus", "descending", "&amp;", "é😀",
        String(repeating: "9", count: 400), "1.7976931348623157e309",
    ]

    /// A real model with one to four mutations: attribute values swapped, lines removed,
    /// duplicated or swapped, fragments inserted, or the text cut short.
    static let mutatedModel = Generator<String, Shrink.None<String>>(run: { rng in
        var lines = seeds.randomElement(using: &rng)!.components(separatedBy: "\n")
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let line = Int.random(in: 0..<lines.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0, 1:
                lines[line] = replacingAnAttributeValue(in: lines[line], &rng)
            case 2 where lines.count > 1:
                lines.remove(at: line)
            case 3:
                lines.insert(lines[line], at: Int.random(in: 0...lines.count, using: &rng))
            case 4:
                lines.swapAt(line, Int.random(in: 0..<lines.count, using: &rng))
            default:
                let text = lines[line]
                let cut = text.index(text.startIndex, offsetBy: Int.random(in: 0...text.count, using: &rng))
                if Bool.random(using: &rng) {
                    lines[line] = String(text[..<cut]) + fragments.randomElement(using: &rng)! + String(text[cut...])
                } else {
                    lines[line] = String(text[..<cut])
                    lines.removeSubrange((line + 1)...)
                }
            }
        }
        return lines.joined(separator: "\n")
    })

    /// Fragments, random bytes and pieces of the real model, in any order.
    static let garbage = Generator<[UInt8], Shrink.None<[UInt8]>>(run: { rng in
        var bytes: [UInt8] = Bool.random(using: &rng) ? Array("<?xml version=\"1.0\"?>\n".utf8) : []
        for _ in 0..<Int.random(in: 0...30, using: &rng) {
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: bytes.append(UInt8.random(in: 0...255, using: &rng))
            case 1: bytes += Array(fragments.randomElement(using: &rng)!.utf8)
            default:
                let seed = Array(seeds.randomElement(using: &rng)!.utf8)
                let start = Int.random(in: 0..<seed.count, using: &rng)
                bytes += seed[start..<min(seed.count, start + Int.random(in: 1...80, using: &rng))]
            }
        }
        return bytes
    })

    /// The line with the value of one of its `key="value"` attributes replaced.
    static func replacingAnAttributeValue(in line: String, _ rng: inout some RandomNumberGenerator) -> String {
        let parts = line.components(separatedBy: "=\"")
        guard parts.count > 1 else { return line }
        let target = Int.random(in: 1..<parts.count, using: &rng)
        var mutated = parts
        guard let close = parts[target].firstIndex(of: "\"") else { return line }
        mutated[target] = values.randomElement(using: &rng)! + parts[target][close...]
        return mutated.joined(separator: "=\"")
    }

    /// Loads, failing the test on anything but a model or a `ModelError` at a line of the file.
    @discardableResult
    private func load(_ xml: Data, sourceLocation: SourceLocation = #_sourceLocation) -> ObjectModel? {
        let path = "fuzz/Recipes.xcdatamodel/contents"
        do {
            return try ObjectModel.load(xml: xml, name: "Recipes", path: path)
        } catch let error as ModelError {
            let lines = xml.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            #expect(error.file == path, sourceLocation: sourceLocation)
            #expect((1...lines).contains(error.line), "line \(error.line) of \(lines): \(error)", sourceLocation: sourceLocation)
            #expect(!error.element.isEmpty && !error.reason.isEmpty, sourceLocation: sourceLocation)
            return nil
        } catch {
            Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func theSeedsAreTheRealModelsAndLoad() throws {
        #expect(Self.seeds.count >= 2)
        for seed in Self.seeds {
            #expect(load(Data(seed.utf8))?.entity(named: "Recipe") != nil)
        }
    }

    @Test func mutatedModelsLoadOrNameAFileAndLine() async {
        var loaded = 0
        var refused = 0
        await propertyCheck(count: 10_000, input: Self.mutatedModel) { xml in
            if load(Data(xml.utf8)) != nil { loaded += 1 } else { refused += 1 }
        }
        #expect(loaded > 0 && refused > 0)
    }

    @Test func garbageIsRefusedWithAFileAndLine() async {
        await propertyCheck(count: 10_000, input: Self.garbage) { bytes in
            load(Data(bytes))
        }
    }

    @Test func deepElementNestingIsRefusedQuickly() {
        let depth = 100_000
        let xml = "<model>\n" + String(repeating: "<entity>", count: depth) + String(repeating: "</entity>", count: depth) + "</model>"
        let start = ContinuousClock.now
        #expect(throws: ModelError.self) { try ObjectModel.load(xml: Data(xml.utf8), name: "deep", path: "deep") }
        do {
            _ = try ObjectModel.load(xml: Data(xml.utf8), name: "deep", path: "deep")
        } catch let error as ModelError {
            #expect(error.line == 2 && error.reason.contains("nested deeper than \(ModelXMLParser.maximumDepth) levels"), "\(error)")
        } catch {
            Issue.record("untyped error \(error)")
        }
        #expect(ContinuousClock.now - start < .seconds(30), "refused at the depth limit, not after parsing every level")
    }

    @Test func bytesThatAreNotUTF8AreRefusedAtTheirLine() {
        var xml = Array(Self.seeds[0].utf8)
        let secondLine = xml.firstIndex(of: UInt8(ascii: "\n"))! + 1
        xml.insert(contentsOf: [0xE2, 0xF9], at: secondLine + 3)
        do {
            _ = try ObjectModel.load(xml: Data(xml), name: "bad", path: "bad/contents")
            Issue.record("invalid UTF-8 loaded")
        } catch let error as ModelError {
            #expect(error.file == "bad/contents" && error.line == 2 && error.reason.contains("not valid UTF-8"), "\(error)")
        } catch {
            Issue.record("untyped error \(error)")
        }
    }
}
