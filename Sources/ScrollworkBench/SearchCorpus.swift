import Feeds
import Foundation
import SeededRandom

/// Generated posts for `bench search`: text with the statistics of English (a Zipf law over a
/// vocabulary of 40,000 words, the common short words on top, word beginnings shared as
/// syllables share them), HTML articles of 1–20 KB (log-uniform, paragraphs with links,
/// emphasis and character references), titles, authors and 50 feeds. The words the typed
/// queries look for sit at ranks that give them the frequencies of real topic words. The same
/// posts for the same seed on every machine.
struct SearchCorpus {
    static let feedCount = 50

    /// Words placed at chosen ranks of the Zipf law: function words on top, the queries' words
    /// where topic words of their kind fall.
    private static let placed: [(word: String, rank: Int)] = [
        ("the", 0), ("of", 1), ("and", 2), ("to", 3), ("in", 4), ("a", 5), ("is", 6), ("that", 7), ("for", 8),
        ("it", 9), ("on", 10), ("with", 11), ("as", 12), ("was", 13), ("this", 14), ("they", 15), ("there", 20),
        ("then", 30), ("their", 25), ("write", 150), ("policy", 600), ("log", 700), ("ahead", 900),
        ("climate", 1_200), ("rust", 1_500), ("runtime", 2_000), ("async", 2_500), ("sqlite", 3_000),
        ("café", 5_000), ("wal", 8_000), ("checkpoint", 9_000),
    ]

    /// Phrases that paragraphs name now and then, as posts name their topics.
    private static let topics = ["write ahead log", "rust async runtime", "climate policy", "sqlite wal checkpoint"]

    private let vocabulary: [String]
    /// The Zipf law's cumulative weights, one per rank.
    private let cumulative: [Double]
    private let authors: [String]
    let feedTitles: [String]

    init(seed: UInt64 = 2026) {
        var random = SeededGenerator(seed: seed)
        let onsets = ["", "b", "c", "d", "f", "g", "h", "l", "m", "n", "p", "r", "s", "t", "v", "w", "st", "tr", "pr", "br",
                      "ch", "sh", "th", "cl", "gr", "sp", "pl", "fr", "qu", "sc"]
        let vowels = ["a", "e", "i", "o", "u", "ea", "ou", "ai", "io", "é"]
        let codas = ["", "", "n", "r", "s", "t", "l", "m", "nd", "st", "ng", "ck", "rt", "x"]
        var words: [String] = []
        var seen = Set(Self.placed.map(\.word))
        words.reserveCapacity(40_000)
        while words.count < 40_000 {
            // Common words are short: the syllable count grows with the rank.
            let syllables = 1 + min(3, words.count / 3_000 + Int.random(in: 0...1, using: &random))
            var word = ""
            for _ in 0..<syllables {
                word += onsets.randomElement(using: &random)! + vowels.randomElement(using: &random)! + codas.randomElement(using: &random)!
            }
            if seen.insert(word).inserted { words.append(word) }
        }
        for (word, rank) in Self.placed { words.insert(word, at: rank) }
        vocabulary = words
        var total = 0.0
        cumulative = words.indices.map { rank in
            total += 1 / Double(rank + 1)
            return total
        }
        authors = (0..<200).map { _ in
            (words[Int.random(in: 300..<3_000, using: &random)].capitalized) + " " + words[Int.random(in: 300..<6_000, using: &random)].capitalized
        }
        feedTitles = (0..<Self.feedCount).map { index in
            "\(words[100 + index * 7].capitalized) \(words[400 + index * 13].capitalized) Weekly"
        }
    }

    /// The posts of feed `feed`, `count` of them, newest first, dated over the three years
    /// before `now`.
    func posts(feed: Int, count: Int, now: Date) -> [FeedEntry] {
        var random = SeededGenerator(seed: UInt64(feed) &* 7_919 &+ 17)
        return (0..<count).map { index in
            let title = phrase(Int.random(in: 4...10, using: &random), minimumRank: 50, using: &random).capitalizedFirst
            // Log-uniform between 1 and 20 KB of markup.
            let targetBytes = Int(1_024 * pow(20, Double.random(in: 0...1, using: &random)))
            var html = ""
            html.reserveCapacity(targetBytes + 1_024)
            while html.utf8.count < targetBytes {
                var sentence = phrase(Int.random(in: 40...120, using: &random), minimumRank: 0, using: &random)
                // Topics are phrases too: one paragraph in fifty names one.
                if Int.random(in: 0..<50, using: &random) == 0 { sentence += " " + Self.topics.randomElement(using: &random)! }
                switch Int.random(in: 0..<4, using: &random) {
                case 0: html += "<p>\(sentence.capitalizedFirst) &amp; <a href=\"https://example.com/\(feed)/\(index)\">more</a>.</p>\n"
                case 1: html += "<p>\(sentence.capitalizedFirst), <em>it&#8217;s</em> said.</p>\n"
                default: html += "<p>\(sentence.capitalizedFirst).</p>\n"
                }
            }
            let age = (Double(index) + Double.random(in: 0..<1, using: &random)) * (3 * 365 * 86_400 / Double(count))
            return FeedEntry(
                id: "https://feed\(feed).example/posts/\(index)", title: title,
                link: URL(string: "https://feed\(feed).example/posts/\(index)"),
                author: authors.randomElement(using: &random), published: now.addingTimeInterval(-age),
                summary: nil, content: html)
        }
    }

    private func phrase(_ count: Int, minimumRank: Int, using random: inout SeededGenerator) -> String {
        var text = ""
        for index in 0..<count {
            if index > 0 { text += " " }
            text += word(minimumRank: minimumRank, using: &random)
        }
        return text
    }

    /// A word drawn by the Zipf law, at `minimumRank` or below.
    private func word(minimumRank: Int, using random: inout SeededGenerator) -> String {
        let low = minimumRank == 0 ? 0 : cumulative[minimumRank - 1]
        let target = Double.random(in: low..<cumulative[cumulative.count - 1], using: &random)
        var lower = minimumRank
        var upper = cumulative.count - 1
        while lower < upper {
            let middle = (lower + upper) / 2
            if cumulative[middle] < target { lower = middle + 1 } else { upper = middle }
        }
        return vocabulary[lower]
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
