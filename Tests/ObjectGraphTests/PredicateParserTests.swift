import Foundation
import Testing
@testable import ObjectGraph

@Suite("Predicate parser")
struct PredicateParserTests {
    /// Valid format strings with the canonical rendering of the tree they parse to.
    static let valid: [(String, String)] = [
        ("name == \"Pie\"", "name == \"Pie\""),
        ("name = 'Pie'", "name == \"Pie\""),
        ("name != \"Pie\"", "name != \"Pie\""),
        ("name <> \"Pie\"", "name != \"Pie\""),
        ("displayOrder < 3", "displayOrder < 3"),
        ("displayOrder <= 3", "displayOrder <= 3"),
        ("displayOrder =< 3", "displayOrder <= 3"),
        ("displayOrder > -3", "displayOrder > -3"),
        ("displayOrder >= 3.5", "displayOrder >= 3.5"),
        ("displayOrder => 3", "displayOrder >= 3"),
        ("displayOrder == 0x1F", "displayOrder == 31"),
        ("x == 1e3", "x == 1000.0"),
        ("name BEGINSWITH \"Ch\"", "name BEGINSWITH \"Ch\""),
        ("name beginswith[c] \"ch\"", "name BEGINSWITH[c] \"ch\""),
        ("name ENDSWITH[d] \"e\"", "name ENDSWITH[d] \"e\""),
        ("name CONTAINS[cd] \"cre\"", "name CONTAINS[cd] \"cre\""),
        ("name LIKE \"C*e?\"", "name LIKE \"C*e?\""),
        ("name LIKE[c] 'c*'", "name LIKE[c] \"c*\""),
        ("name MATCHES \"[A-Z].*\"", "name MATCHES \"[A-Z].*\""),
        ("name IN {\"a\", \"b\"}", "name IN {\"a\", \"b\"}"),
        ("name IN[c] {'a'}", "name IN[c] {\"a\"}"),
        ("displayOrder BETWEEN {1, 5}", "displayOrder BETWEEN {1, 5}"),
        ("a == 1 AND b == 2", "(a == 1 AND b == 2)"),
        ("a == 1 && b == 2", "(a == 1 AND b == 2)"),
        ("a == 1 OR b == 2", "(a == 1 OR b == 2)"),
        ("a == 1 || b == 2", "(a == 1 OR b == 2)"),
        ("NOT a == 1", "NOT (a == 1)"),
        ("!a == 1", "NOT (a == 1)"),
        ("not (a == 1 or b == 2)", "NOT (a == 1 OR b == 2)"),
        ("a == 1 OR b == 2 AND c == 3", "(a == 1 OR (b == 2 AND c == 3))"),
        ("(a == 1 OR b == 2) AND c == 3", "((a == 1 OR b == 2) AND c == 3)"),
        ("a == 1 AND b == 2 AND c == 3", "(a == 1 AND b == 2 AND c == 3)"),
        ("((a == 1))", "a == 1"),
        ("TRUEPREDICATE", "TRUEPREDICATE"),
        ("falsepredicate", "FALSEPREDICATE"),
        ("TRUEPREDICATE AND NOT FALSEPREDICATE", "(TRUEPREDICATE AND NOT (FALSEPREDICATE))"),
        ("type == nil", "type == nil"),
        ("type == NULL", "type == nil"),
        ("type != nil", "type != nil"),
        ("type.name == \"Dessert\"", "type.name == \"Dessert\""),
        ("recipe.type.name == 'Dessert'", "recipe.type.name == \"Dessert\""),
        ("ANY ingredients.name CONTAINS[c] \"flour\"", "ANY ingredients.name CONTAINS[c] \"flour\""),
        ("SOME ingredients.name == \"egg\"", "ANY ingredients.name == \"egg\""),
        ("ALL ingredients.displayOrder >= 0", "ALL ingredients.displayOrder >= 0"),
        ("NONE ingredients.name == \"nuts\"", "NONE ingredients.name == \"nuts\""),
        ("ingredients.@count > 5", "ingredients.@count > 5"),
        ("ingredients.@count == 0", "ingredients.@count == 0"),
        ("ingredients.@sum.displayOrder > 2", "ingredients.@sum.displayOrder > 2"),
        ("flag == YES", "flag == YES"),
        ("flag == no", "flag == NO"),
        ("flag == TRUE", "flag == YES"),
        ("flag == false", "flag == NO"),
        ("name == \"say \\\"hi\\\"\\n\"", "name == \"say \\\"hi\\\"\\n\""),
        ("name == 'it\\'s'", "name == \"it's\""),
        ("name == \"\\u00e9\"", "name == \"é\""),
        ("#name == \"x\"", "name == \"x\""),
        ("#in == 1", "#in == 1"),
        ("SELF == SELF", "SELF == SELF"),
        ("name == \"a\" AND (ANY ingredients.name BEGINSWITH[cd] \"su\" OR type.name IN {\"Dessert\", \"Snack\"})",
         "(name == \"a\" AND (ANY ingredients.name BEGINSWITH[cd] \"su\" OR type.name IN {\"Dessert\", \"Snack\"}))"),
        ("displayOrder == -2.5", "displayOrder == -2.5"),
        ("a==1", "a == 1"),
        ("a IN {}", "a IN {}"),
    ]

    @Test(arguments: valid)
    func parsesValidFormat(format: String, canonical: String) throws {
        let predicate = try ObjectPredicate(format: format)
        #expect(predicate.description == canonical)
        // The canonical form parses back to the same tree (except for SELF-free identities).
        #expect(try ObjectPredicate(format: canonical) == predicate)
    }

    /// Invalid format strings with the position of the error and a fragment of what was expected.
    static let invalid: [(String, Int, String)] = [
        ("", 0, "key path or value"),
        ("name ==", 7, "key path or value"),
        ("name \"Pie\"", 5, "comparison operator"),
        ("name === 1", 7, "key path or value"),
        ("name == \"Pie", 8, "closing"),
        ("(name == 1", 10, "')'"),
        ("name == 1)", 9, "AND, OR"),
        ("name == 1 AND", 13, "key path or value"),
        ("name CONTAINS[x] \"a\"", 14, "options"),
        ("name CONTAINS[c \"a\"", 16, "']'"),
        ("x BETWEEN 3", 10, "two-element"),
        ("x BETWEEN {1, 2, 3}", 18, "two-element"),
        ("ANY 3 == 1", 4, "key path after ANY"),
        ("name == $value", 8, "variables"),
        ("name == \"a\\q\"", 10, "valid escape"),
        ("name == %@", 8, "an argument"),
        ("type. == 1", 6, "key name after '.'"),
        ("a == 1 ^ b", 7, "key path, value or operator"),
        ("a == {1, 2", 10, "',' or '}'"),
        ("a == 12abc", 7, "end of the number"),
        ("AND == 1", 0, "key path or value"),
        ("a == 1 b == 2", 7, "AND, OR"),
    ]

    @Test(arguments: invalid)
    func reportsErrorPosition(format: String, position: Int, expected: String) {
        do {
            let p = try ObjectPredicate(format: format)
            Issue.record("\(format) parsed as \(p)")
        } catch let error as PredicateParseError {
            #expect(error.position == position, "\(format): \(error)")
            #expect(error.expected.contains(expected), "\(format): \(error)")
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func substitutesArguments() throws {
        let date = Date(timeIntervalSinceReferenceDate: 1000)
        let p = try ObjectPredicate(format: "%K == %@ AND count > %d AND ratio < %f AND created > %@ AND name IN %@",
                                    "name", "Pie", 3, 2.5, date, ["a", "b"])
        let expected: ObjectPredicate = .and([
            .comparison(.init(.keyPath("name"), .equal, .constant(.string("Pie")))),
            .comparison(.init(.keyPath("count"), .greaterThan, .constant(.int(3)))),
            .comparison(.init(.keyPath("ratio"), .lessThan, .constant(.double(2.5)))),
            .comparison(.init(.keyPath("created"), .greaterThan, .constant(.date(date)))),
            .comparison(.init(.keyPath("name"), .in, .aggregate([.constant(.string("a")), .constant(.string("b"))]))),
        ])
        #expect(p == expected)
        let id = ObjectID(entityName: "RecipeType", referenceString: "t1")
        #expect(try ObjectPredicate(format: "type == %@", id) == .comparison(.init(.keyPath("type"), .equal, .object(id))))
        #expect(try ObjectPredicate(format: "type == %@", Optional<String>.none) == .comparison(.init(.keyPath("type"), .equal, .constant(.null))))
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "a == %@", 1, 2) }
        #expect(throws: PredicateParseError.self) { try ObjectPredicate(format: "%K == 1", 5) }
    }

    @Test func builderMatchesParser() throws {
        #expect(PredicateKey("type.name").equals("Dessert") == (try ObjectPredicate(format: "type.name == \"Dessert\"")))
        #expect(PredicateKey.any("ingredients.name").contains("flour", options: .caseInsensitive)
                == (try ObjectPredicate(format: "ANY ingredients.name CONTAINS[c] 'flour'")))
        #expect(PredicateKey("ingredients").count.greaterThan(5) == (try ObjectPredicate(format: "ingredients.@count > 5")))
        #expect((PredicateKey("a").equals(1) && !PredicateKey("b").isNil) == (try ObjectPredicate(format: "a == 1 AND NOT b == nil")))
        #expect((PredicateKey("a").between(1, 5) || PredicateKey("n").isIn(["x", "y"])) == (try ObjectPredicate(format: "a BETWEEN {1, 5} OR n IN {'x', 'y'}")))
        #expect(PredicateKey.all("ingredients.displayOrder").greaterThanOrEqual(0) == (try ObjectPredicate(format: "ALL ingredients.displayOrder >= 0")))
        #expect(PredicateKey.none("ingredients.name").like("nut*") == (try ObjectPredicate(format: "NONE ingredients.name LIKE 'nut*'")))
        #expect(try ObjectPredicate(format: "a == 1 AND type.name == 'x'").keyPaths == ["a", "type.name"])
    }
}
