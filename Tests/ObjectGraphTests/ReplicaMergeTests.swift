import Testing
@testable import ObjectGraph

/// The replica-merge rule on hand-written conflicts: every expected value is written out.
@Suite("Replica merge rule")
struct ReplicaMergeTests {
    typealias Properties = ReplicaMerge.Properties<String>
    typealias Version = ReplicaMerge.Version<String>

    /// An ingredient's object ID.
    static func ingredient(_ name: String) -> ObjectID { ObjectID(entityName: "Ingredient", referenceString: name) }
    static let salt = ingredient("salt"), pepper = ingredient("pepper"), flour = ingredient("flour"), sugar = ingredient("sugar")

    static func props(_ values: [String: String], ingredients: [ObjectID]? = nil) -> Properties {
        Properties(values: values, toMany: ingredients.map { ["ingredients": $0] } ?? [:])
    }
    static func winner(_ p: Properties) -> Version { Version(version: RowVersion("2-w"), properties: p, base: nil) }
    static func other(_ token: String, _ p: Properties, base: Properties?) -> Version {
        Version(version: RowVersion(token), properties: p, base: base)
    }

    static let base = props(["name": "Soup", "prepTime": "10 min", "overview": "Hot"], ingredients: [salt, pepper])

    @Test func attributeOnlyOneSideChangedTakesThatSide() {
        let w = Self.winner(Self.props(["name": "Chowder", "prepTime": "10 min", "overview": "Hot"], ingredients: [Self.salt, Self.pepper]))
        let o = Self.other("2-o", Self.props(["name": "Soup", "prepTime": "10 min", "overview": "Cold"], ingredients: [Self.salt, Self.pepper]), base: Self.base)
        let merged = ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [o])
        #expect(merged == Self.props(["name": "Chowder", "prepTime": "10 min", "overview": "Cold"], ingredients: [Self.salt, Self.pepper]))
    }

    @Test func attributeBothChangedKeepsTheWinners() {
        let w = Self.winner(Self.props(["name": "Chowder", "prepTime": "10 min", "overview": "Hot"]))
        let o = Self.other("2-o", Self.props(["name": "Bisque", "prepTime": "20 min", "overview": "Hot"]), base: Self.base)
        let merged = ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [o])
        #expect(merged.values == ["name": "Chowder", "prepTime": "20 min", "overview": "Hot"])
    }

    @Test func preferringAVersionPutsItBeforeTheWinner() {
        let w = Self.winner(Self.props(["name": "Chowder", "prepTime": "15 min", "overview": "Hot"]))
        let o = Self.other("2-o", Self.props(["name": "Bisque", "prepTime": "10 min", "overview": "Hot"]), base: Self.base)
        let merged = ReplicaMerge.resolve(.prefer(RowVersion("2-o")), winner: w, others: [o])
        #expect(merged.values == ["name": "Bisque", "prepTime": "15 min", "overview": "Hot"])
        // Preferring the winner (or a version that is not there) is winnerTrumps.
        #expect(ReplicaMerge.resolve(.prefer(RowVersion("2-w")), winner: w, others: [o]).values["name"] == "Chowder")
        #expect(ReplicaMerge.resolve(.prefer(RowVersion("9-x")), winner: w, others: [o]).values["name"] == "Chowder")
    }

    @Test func tieBetweenOtherVersionsGoesToTheFirstInTheStoresOrder() {
        // The winner left overview alone; both other versions changed it.
        let w = Self.winner(Self.props(["name": "Soup", "prepTime": "10 min", "overview": "Hot"]))
        let first = Self.other("2-b", Self.props(["name": "Soup", "prepTime": "10 min", "overview": "Spicy"]), base: Self.base)
        let second = Self.other("2-a", Self.props(["name": "Soup", "prepTime": "10 min", "overview": "Mild"]), base: Self.base)
        #expect(ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [first, second]).values["overview"] == "Spicy")
        #expect(ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [second, first]).values["overview"] == "Mild")
    }

    @Test func removedValueIsAChangeToo() {
        // The other version cleared overview (a missing value is null); the winner kept it.
        let w = Self.winner(Self.props(["name": "Soup", "prepTime": "10 min", "overview": "Hot"]))
        let o = Self.other("2-o", Self.props(["name": "Soup", "prepTime": "10 min"]), base: Self.base)
        #expect(ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [o]).values == ["name": "Soup", "prepTime": "10 min"])
    }

    @Test func toManyMergesAsSetsWhoeverWins() {
        // Here flour was added; there sugar was added and salt removed.
        let here = Self.props(["name": "Soup"], ingredients: [Self.salt, Self.pepper, Self.flour])
        let there = Self.props(["name": "Soup"], ingredients: [Self.pepper, Self.sugar])
        let base = Self.props(["name": "Soup"], ingredients: [Self.salt, Self.pepper])
        let hereWins = ReplicaMerge.resolve(.winnerTrumps, winner: Self.winner(here), others: [Self.other("2-o", there, base: base)])
        #expect(hereWins.toMany == ["ingredients": [Self.pepper, Self.flour, Self.sugar]])
        let thereWins = ReplicaMerge.resolve(.winnerTrumps, winner: Self.winner(there), others: [Self.other("2-o", here, base: base)])
        #expect(thereWins.toMany == ["ingredients": [Self.pepper, Self.sugar, Self.flour]])
        // Preferring a version changes nothing for to-many relationships.
        let preferred = ReplicaMerge.resolve(.prefer(RowVersion("2-o")), winner: Self.winner(here), others: [Self.other("2-o", there, base: base)])
        #expect(preferred.toMany == ["ingredients": [Self.pepper, Self.flour, Self.sugar]])
    }

    @Test func toManyBothRemovedAndThreeVersions() {
        let base = Self.props([:], ingredients: [Self.salt, Self.pepper, Self.flour])
        let w = Self.winner(Self.props([:], ingredients: [Self.pepper, Self.flour]))
        let b = Self.other("2-b", Self.props([:], ingredients: [Self.pepper]), base: base)
        let c = Self.other("2-c", Self.props([:], ingredients: [Self.salt, Self.pepper, Self.flour, Self.sugar]), base: base)
        #expect(ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [b, c]).toMany == ["ingredients": [Self.pepper, Self.sugar]])
    }

    @Test func anAddWinsOverAConcurrentRemove() {
        // One version added flour since its base; another removed it since a later base.
        let w = Self.winner(Self.props([:], ingredients: [Self.salt, Self.flour]))
        let adder = Self.other("2-a", Self.props([:], ingredients: [Self.salt, Self.flour]), base: Self.props([:], ingredients: [Self.salt]))
        let remover = Self.other("3-r", Self.props([:], ingredients: [Self.salt]), base: Self.props([:], ingredients: [Self.salt, Self.flour]))
        #expect(ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [remover, adder]).toMany == ["ingredients": [Self.salt, Self.flour]])
    }

    @Test func withoutABaseTheWinnerKeepsItsValuesAndToManyIsTheUnion() {
        let w = Self.winner(Self.props(["name": "Chowder", "overview": "Hot"], ingredients: [Self.salt]))
        let o = Self.other("2-o", Self.props(["name": "Bisque", "prepTime": "5 min"], ingredients: [Self.pepper, Self.salt]), base: nil)
        let merged = ReplicaMerge.resolve(.winnerTrumps, winner: w, others: [o])
        #expect(merged == Self.props(["name": "Chowder", "overview": "Hot"], ingredients: [Self.salt, Self.pepper]))
        // Preferred without a base: all of its values.
        let preferred = ReplicaMerge.resolve(.prefer(RowVersion("2-o")), winner: w, others: [o])
        #expect(preferred == Self.props(["name": "Bisque", "prepTime": "5 min"], ingredients: [Self.salt, Self.pepper]))
    }

    @Test func keepTakesAVersionWholeAndMergedOnlyTheWinnersValues() {
        let w = Self.winner(Self.props(["name": "Chowder"], ingredients: [Self.salt, Self.flour]))
        let o = Self.other("2-o", Self.props(["name": "Bisque", "overview": "Cold"], ingredients: [Self.pepper]), base: Self.base)
        #expect(ReplicaMerge.resolve(.keep(RowVersion("2-o")), winner: w, others: [o]) == Self.props(["name": "Bisque", "overview": "Cold"], ingredients: [Self.pepper]))
        #expect(ReplicaMerge.resolve(.keep(RowVersion("2-w")), winner: w, others: [o]) == Self.props(["name": "Chowder"], ingredients: [Self.salt, Self.flour]))
        // `.merged` starts from the winner's attributes (the store writes the chosen values
        // over them); its to-many relationships merge: salt was removed there.
        #expect(ReplicaMerge.resolve(.merged([:]), winner: w, others: [o]) == Self.props(["name": "Chowder"], ingredients: [Self.flour]))
    }
}
