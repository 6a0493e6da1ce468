import Foundation
import SeededRandom

/// The demo's feed: 500 posts about lists, terminals and photographs, each with a landscape
/// for a thumbnail, and a new generation every little while (new posts at the top, some
/// removed, some edited) so refreshes have something to animate.
///
/// Deterministic: generation `g` is the same document on every machine and every run.
struct DemoFeed: Sendable {
    struct Post: Sendable, Equatable {
        var id: Int
        var title: String
        var summary: String
        var published: Date
        var picture: UInt64
    }

    /// Posts newest first.
    private(set) var posts: [Post]
    private(set) var generation = 0
    private var nextID: Int
    private var random: SeededGenerator
    /// When the newest post of generation 0 was published.
    let start: Date

    /// Generation 0: `count` posts, twenty minutes apart, the newest at `start`.
    init(count: Int = 500, start: Date, seed: UInt64 = 2026) {
        random = SeededGenerator(seed: seed)
        self.start = start
        nextID = count
        var posts: [Post] = []
        for index in 0..<count {
            posts.append(Self.post(id: count - 1 - index, published: start.addingTimeInterval(-1200 * Double(index)), using: &random))
        }
        self.posts = posts
    }

    /// The next generation: one to five new posts at the top, up to two removed, up to three
    /// edited.
    mutating func advance() {
        generation += 1
        let published = start.addingTimeInterval(600 * Double(generation))
        for offset in 0..<Int.random(in: 1...5, using: &random) {
            posts.insert(Self.post(id: nextID, published: published.addingTimeInterval(Double(offset)), using: &random), at: 0)
            nextID += 1
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) where posts.count > 10 {
            posts.remove(at: Int.random(in: 5..<posts.count, using: &random))
        }
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let index = Int.random(in: 0..<posts.count, using: &random)
            posts[index].title += " (updated)"
        }
    }

    /// The feed as RSS 2.0, pictures at `pictureURL(picture)`.
    func rss(pictureURL: (UInt64) -> String) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel>
            <title>Scrollwork demo</title><link>https://scrollwork.example/</link>
            <description>A generated feed of 500 posts with pictures; it changes every few seconds.</description>

            """
        for post in posts {
            let picture = Self.escaped(pictureURL(post.picture))
            out += """
                <item><guid isPermaLink="false">demo-\(post.id)</guid><title>\(Self.escaped(post.title))</title>
                <link>https://scrollwork.example/posts/\(post.id)</link>
                <pubDate>\(Self.rfc822(post.published))</pubDate>
                <description>\(Self.escaped("<p>\(post.summary)</p><p><img src=\"\(pictureURL(post.picture))\"></p>"))</description>
                <media:thumbnail url="\(picture)" width="320" height="200"/></item>

                """
        }
        return out + "</channel></rss>\n"
    }

    private static func post(id: Int, published: Date, using random: inout SeededGenerator) -> Post {
        let title = [
            openers[Int.random(in: 0..<openers.count, using: &random)],
            subjects[Int.random(in: 0..<subjects.count, using: &random)],
            endings[Int.random(in: 0..<endings.count, using: &random)],
        ].filter { !$0.isEmpty }.joined(separator: " ")
        let summary = sentences.shuffled(using: &random).prefix(Int.random(in: 2...4, using: &random)).joined(separator: " ")
        return Post(id: id, title: title, summary: summary, published: published, picture: random.next())
    }

    private static let openers = [
        "Notes on", "A week of", "Why I love", "Field report:", "Five lessons from", "Sketches of", "Against",
        "The quiet joy of", "Measuring", "Rethinking", "Postcards from", "Late thoughts on",
    ]
    private static let subjects = [
        "scrolling a thousand photos", "mountain light", "terminal colours", "lakes at dawn", "half-block pictures",
        "feeds that never freeze", "the landing zone", "diffing in linear time", "night trains", "old RSS readers",
        "the 60 Hz budget", "cached thumbnails", "coastal ridges", "slow mornings",
    ]
    private static let endings = ["", "in the rain", "at scale", "revisited", "from a hilltop", "for beginners", "again"]
    private static let sentences = [
        "The light changed twice before noon.", "Every row arrived before the fling stopped.",
        "We measured it three times and the ratio held.", "Nothing blocked the frame loop.",
        "The ridge line faded into the haze.", "A cache hit costs almost nothing.",
        "Newest first, after a fling, is the rule.", "The lake mirrored the mountains perfectly.",
        "It renders in the terminal with half blocks.", "Old posts are pushed down, never left with a gap.",
    ]

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    /// `date` as RFC 822 in UTC, as RSS writes `pubDate`; computed, since a feed of 500 posts
    /// would otherwise make 500 date formatters.
    private static func rfc822(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.weekday, .day, .month, .year, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][(parts.weekday ?? 1) - 1]
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][(parts.month ?? 1) - 1]
        return "\(weekday), \(two(parts.day)) \(month) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) GMT"
    }
}
