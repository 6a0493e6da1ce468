import Feeds
import Foundation
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE rss [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <rss version="2.0"><channel><title>&lol9;</title><item><title>x</title></item></channel></rss>
        """

    @Test func billionLaughsFailsWithATypedError() {
        #expect(parseError(Self.billionLaughs) == .entityExpansionLimitExceeded(limit: FeedParser.Configuration().maxEntityExpansionBytes))
    }

    @Test func manyReferencesToOneLargeEntityAreCountedEachTime() {
        let big = String(repeating: "x", count: 100_000)
        let items = String(repeating: "<item><title>&big;</title></item>", count: 20)
        let document = "<!DOCTYPE rss [<!ENTITY big \"\(big)\">]><rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>"
        #expect(parseError(document) == .entityExpansionLimitExceeded(limit: 1 << 20))
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let secret = "TOP-SECRET-\(UUID().uuidString)"
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-secret-\(UUID().uuidString).txt")
        try secret.write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let document = """
            <?xml version="1.0"?>
            <!DOCTYPE rss [ <!ENTITY secret SYSTEM "\(path.absoluteString)"> <!ENTITY plain SYSTEM "\(path.path)"> ]>
            <rss version="2.0"><channel><title>t &secret;</title>
            <item><title>x &plain;</title><description>&secret;&plain;</description></item></channel></rss>
            """
        let feed = try parse(document)
        let everything = [feed.info.title ?? ""] + feed.entries.flatMap { [$0.title, $0.summary ?? "", $0.id] }
        #expect(!everything.joined().contains("TOP-SECRET"))
        #expect(feed.entries.first?.title.hasPrefix("x") == true)
    }

    @Test func anExternalDTDIsNeverLoaded() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-dtd-\(UUID().uuidString).dtd")
        try "<!ENTITY leak \"LEAKED-FROM-DTD\">".write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let document = """
            <!DOCTYPE rss SYSTEM "\(path.absoluteString)">
            <rss version="2.0"><channel><title>t &leak;</title><item><title>x</title></item></channel></rss>
            """
        let feed = try parse(document)
        #expect(feed.info.title?.contains("LEAKED") == false)
    }

    @Test func anExternalParameterEntityIsNeverLoaded() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-pe-\(UUID().uuidString).dtd")
        try "<!ENTITY leak \"LEAKED-THROUGH-PE\">".write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        let document = """
            <!DOCTYPE rss [ <!ENTITY % external SYSTEM "\(path.absoluteString)"> %external; ]>
            <rss version="2.0"><channel><title>t &leak;</title><item><title>x &leak;</title></item></channel></rss>
            """
        let feed = try parse(document)
        #expect(feed.info.title?.contains("LEAKED") == false)
        #expect(feed.entries.first?.title.contains("LEAKED") == false)
    }

    @Test func aFeedOverTheSizeLimitFails() {
        var configuration = FeedParser.Configuration()
        configuration.maxFeedBytes = 1000
        let items = String(repeating: "<item><title>entry</title></item>", count: 100)
        #expect(throws: FeedParsingError.feedTooLarge(limit: 1000)) {
            try parse("<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>", configuration: configuration)
        }
    }
}
