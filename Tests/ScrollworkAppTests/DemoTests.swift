import Feeds
import FeedsHTTP
import FeedsTestSupport
import Foundation
import ImageFixtures
import ScrollworkTestSupport
import Testing
import Thumbnails
@testable import ScrollworkApp
@testable import ScrollworkDemo

/// The embedded demo: a feed that changes, pictures worth looking at, served over real HTTP.
@Suite struct DemoTests {
    private let start = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func theFeedHasFiveHundredPostsAndChangesByGeneration() throws {
        var feed = DemoFeed(start: start)
        #expect(feed.posts.count == 500)
        #expect(feed.posts == DemoFeed(start: start).posts, "the same feed on every run")
        let before = feed.posts
        feed.advance()
        let newIDs = Set(feed.posts.map(\.id)).subtracting(before.map(\.id))
        #expect((1...5).contains(newIDs.count))
        #expect(feed.posts.prefix(newIDs.count).allSatisfy { newIDs.contains($0.id) }, "new posts come first")
        #expect(feed.posts[0].published > before[0].published)
        let parsed = try FeedDocumentParser().parse(Array(feed.rss { "https://p.example/\($0).jpg" }.utf8), url: nil, charset: nil)
        #expect(parsed.entries.count == feed.posts.count && !parsed.isMalformed)
        #expect(parsed.entries.allSatisfy { $0.thumbnail != nil && !$0.title.isEmpty })
        for (entry, post) in zip(parsed.entries, feed.posts) {
            #expect(abs((entry.published ?? .distantPast).timeIntervalSince(post.published)) < 1, "pubDate of \(post.id)")
        }
    }

    @Test func picturesDifferFromSeedToSeed() {
        let size = 64 * 40
        let pictures = (1...6).map { DemoPicture.pixels(width: 64, height: 40, seed: $0) }
        #expect(pictures.allSatisfy { $0.count == size * 3 })
        for (index, picture) in pictures.enumerated() {
            for other in pictures[(index + 1)...] {
                let difference = zip(picture, other).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
                #expect(difference / (size * 3) > 10, "two seeds, two different pictures")
            }
        }
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theDocumentStoredBeforeTheServerAnswersIsTheOneItServes() async throws {
        // The reader stores `document()` for its first screen; the first refresh must then find
        // every post unchanged, and later generations arrive as they would.
        let clock = ManualElapsed()
        let demo = try await DemoServer.start(start: start, elapsed: { clock.value }, latency: false)
        let fetcher = FeedFetcher()
        guard case .fetched(let served) = try await fetcher.fetch(FeedFetchRequest(url: demo.feedURL)) else {
            Issue.record("the feed was not served")
            return
        }
        #expect(demo.document() == served.body)
        clock.value = DemoServer.generationInterval * 2
        #expect(demo.document() != served.body, "a later generation")
        try await fetcher.shutdown()
        try await demo.stop()
    }

    @Test(.timeLimit(.minutes(1 * HangGuard.scale)))
    func theServerServesTheFeedAndItsPicturesAndAnswersUnchangedWithA304() async throws {
        let clock = ManualElapsed()
        let demo = try await DemoServer.start(start: start, elapsed: { clock.value }, latency: false)
        let store = try FeedStore()
        let fetcher = FeedFetcher()
        let refresher = FeedRefresher(store: store, fetcher: fetcher)
        let feed = try await store.addFeed(url: demo.feedURL)

        #expect(await refresher.refresh(feed).status == .refreshed(new: 500, modified: 0, unchanged: 0, malformed: false))
        let stored = try #require(try await store.feed(id: feed.id))
        #expect(await refresher.refresh(stored).status == .notModified)
        clock.value = DemoServer.generationInterval * 3
        guard case .refreshed(let new, _, _, false) = await refresher.refresh(try #require(try await store.feed(id: feed.id))).status,
              new >= 3 else {
            Issue.record("three generations later the feed has new posts")
            return
        }

        let row = try #require(try await store.rows(EntryQuery(limit: 1)).first)
        let pictureURL = try #require(row.thumbnail)
        guard case .fetched(let picture) = try await fetcher.fetch(FeedFetchRequest(url: pictureURL)) else {
            Issue.record("the picture was not served")
            return
        }
        let thumbnail = try ThumbnailDecoder().decode(picture.body, maxPixelSize: 64, isCancelled: { false })
        #expect(thumbnail.width == 64 && thumbnail.height == 40)
        try await fetcher.shutdown()
        try await demo.stop()
    }
}

/// Elapsed time a test sets by hand.
final class ManualElapsed: @unchecked Sendable {
    private let lock = NSLock()
    private var elapsed: Duration = .zero
    var value: Duration {
        get { lock.withLock { elapsed } }
        set { lock.withLock { elapsed = newValue } }
    }
}
