import DocumentStore
import Foundation
import Testing
import Replication
import TestSupport

/// The one changes-feed paging loop, over a store and over a peer.
@Suite struct ChangesFeedTests {
    @Test func walksAStoreFeedAcrossPagesAndResumesWhereItStopped() throws {
        let dir = try TemporaryDirectory()
        let store = try DocumentStore(path: dir.path("feed.sqlite"))
        for index in 0..<7 { _ = try store.create(id: "d\(index)", body: recipeBody(index)) }
        var seen: [String] = []
        let end = try ChangesFeed.forEachChange(in: store, pageSize: 3) { seen.append($0.id) }
        #expect(seen == (0..<7).map { "d\($0)" })
        #expect(end == (try store.lastSequence))
        _ = try store.create(id: "late", body: recipeBody(8))
        var later: [String] = []
        #expect(try ChangesFeed.forEachChange(in: store, since: end, pageSize: 3) { later.append($0.id) } > end)
        #expect(later == ["late"])
    }

    @Test func aPeerPageShorterThanAskedEndsTheFeed() async throws {
        let dir = try TemporaryDirectory()
        let store = try DocumentStore(path: dir.path("peer.sqlite"))
        for index in 0..<5 { _ = try store.create(id: "d\(index)", body: recipeBody(index)) }
        let peer = LocalDatabase(store: store)
        let first = try await ChangesFeed.page(of: peer, since: nil, pageSize: 3)
        #expect(first.page.rows.count == 3 && !first.isLast)
        let second = try await ChangesFeed.page(of: peer, since: first.page.lastSequence, pageSize: 3)
        #expect(second.page.rows.map(\.id) == ["d3", "d4"] && second.isLast)
    }
}
