import Feeds
import Foundation
import SeededRandom
import Testing

@Suite("Dates")
struct DateTests {
    /// Written text, and the instant it names in RFC 3339 UTC (nil: not a date).
    static let cases: [(String, String?)] = [
        // RFC 822 and its corruptions
        ("Sat, 02 Mar 2024 10:00:00 GMT", "2024-03-02T10:00:00Z"),
        ("Sat, 2 Mar 2024 10:00:00 +0000", "2024-03-02T10:00:00Z"),
        ("02 Mar 2024 10:00:00 GMT", "2024-03-02T10:00:00Z"),
        ("Saturday, 02 March 2024 10:00:00 GMT", "2024-03-02T10:00:00Z"),
        ("Sat 02 Mar 2024 10:00:00 GMT", "2024-03-02T10:00:00Z"),
        ("Sat, 02 Mar 24 10:00:00 GMT", "2024-03-02T10:00:00Z"),
        ("Tue, 02 Mar 99 10:00:00 GMT", "1999-03-02T10:00:00Z"),
        ("Thu, 02 Mar 106 10:00:00 GMT", "2006-03-02T10:00:00Z"),
        ("Sat, 02 Mar 2024 10:00 GMT", "2024-03-02T10:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00", "2024-03-02T10:00:00Z"),
        ("Sat, 02 Mar 2024", "2024-03-02T00:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 EST", "2024-03-02T15:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 PDT", "2024-03-02T17:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 -0500", "2024-03-02T15:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 +05:30", "2024-03-02T04:30:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 Z", "2024-03-02T10:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 A", "2024-03-02T09:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 N", "2024-03-02T11:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 Y", "2024-03-02T22:00:00Z"),
        ("Sat, 02 Mar 2024 10:00:00 GMT+2", "2024-03-02T08:00:00Z"),
        ("sat, 02 mar 2024 10:00:00 gmt", "2024-03-02T10:00:00Z"),
        ("Sat,02 Mar 2024 10:00:00 GMT", "2024-03-02T10:00:00Z"),
        ("Saturday, 02-Mar-24 10:00:00 GMT", "2024-03-02T10:00:00Z"),
        ("Sat Mar  2 10:00:00 2024", "2024-03-02T10:00:00Z"),
        ("Sat, 02 Sept 2023 10:00:00 GMT", "2023-09-02T10:00:00Z"),
        ("Sat, 29 Feb 2024 10:00:00 GMT", "2024-02-29T10:00:00Z"),
        ("  Sat, 02 Mar 2024 10:00:00 GMT\n", "2024-03-02T10:00:00Z"),
        // RFC 3339 / ISO 8601 and variants
        ("2024-03-02T10:00:00Z", "2024-03-02T10:00:00Z"),
        ("2024-03-02T10:00:00.123Z", "2024-03-02T10:00:00Z"),
        ("2024-03-02T10:00:00+01:00", "2024-03-02T09:00:00Z"),
        ("2024-03-02T10:00:00+0100", "2024-03-02T09:00:00Z"),
        ("2024-03-02T10:00:00-03", "2024-03-02T13:00:00Z"),
        ("2024-03-02 10:00:00Z", "2024-03-02T10:00:00Z"),
        ("2024-03-02t10:00:00z", "2024-03-02T10:00:00Z"),
        ("2024-03-02T10:00Z", "2024-03-02T10:00:00Z"),
        ("2024-03-02T10:00:00", "2024-03-02T10:00:00Z"),
        ("2024-03-02", "2024-03-02T00:00:00Z"),
        ("20240302T100000Z", "2024-03-02T10:00:00Z"),
        ("2024-03-02T10:00:00 UTC", "2024-03-02T10:00:00Z"),
        ("2016-12-31T23:59:60Z", "2016-12-31T23:59:59Z"),
        // Not dates: nil, never "now"
        ("", nil),
        ("yesterday", nil),
        ("Sat, 31 Feb 2024 10:00:00 GMT", nil),
        ("Sat, 02 Foo 2024 10:00:00 GMT", nil),
        ("Sat, 02 Mar 2024 25:00:00 GMT", nil),
        ("2024-13-02T10:00:00Z", nil),
        ("2023-02-29", nil),
        ("2024-03-02T10:00:00+25:00", nil),
        ("2024-03-02Tgarbage", nil),
        ("Sat, 02 Mar 2024 10:61:00 GMT", nil),
        ("Sat, 02 Mar 2024 10:00: GMT", nil),
        ("Sat, 02 Mar 2024 10:+5:00 GMT", nil),
        ("Sat, 02 Mar 2024 :00 GMT", nil),
    ]

    @Test(arguments: cases)
    func parses(text: String, expected: String?) {
        let parsed = FeedDate.parse(text)
        #expect(parsed.map(FeedDate.rfc3339) == expected, "\(text)")
    }

    @Test func writesRFC3339InUTC() {
        #expect(FeedDate.rfc3339(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        #expect(FeedDate.rfc3339(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29T00:00:00Z")
        #expect(FeedDate.rfc3339(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test func agreesWithFoundationOnRandomInstants() {
        let seed = randomizedTestSeed()
        print("DateTests seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var generator = SeededGenerator(seed: seed)
        let formatter = ISO8601DateFormatter()
        for _ in 0..<500 {
            let seconds = Double(Int64.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            #expect(FeedDate.rfc3339(date) == formatter.string(from: date), "seed \(seed)")
            #expect(FeedDate.parse(formatter.string(from: date)) == date, "seed \(seed)")
        }
    }
}

extension DateTests {
    /// Strings made of the characters dates are made of: any answer but a crash will do
    /// (a crash ends the whole test run, which is the failure this guards against).
    @Test func survivesRandomDateLikeText() {
        let seed = randomizedTestSeed()
        print("DateTests fuzz seed \(seed) (replay with SCROLLWORK_SEED=\(seed))")
        var random = SeededGenerator(seed: seed)
        let alphabet = Array("0123456789 ,:+-.TtZzJanMarSepGMTUTCESTPDTMonSat".unicodeScalars)
        for _ in 0..<5_000 {
            let text = String(String.UnicodeScalarView((0..<Int.random(in: 0...32, using: &random)).map { _ in
                alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            }))
            if let date = FeedDate.parse(text) {
                #expect(FeedDate.rfc3339(date).hasSuffix("Z"), "\(text), seed \(seed)")
            }
        }
    }
}
