import NIOCore
import Testing
@testable import HTTPLoading

/// A body's deadline bounds the server's time, not the reader's: the time a reader spends with
/// each piece moves it later, the time spent waiting for pieces does not.
@Suite struct ReadDeadlineTests {
    private let start = NIODeadline.uptimeNanoseconds(1_000_000_000)

    private func at(_ milliseconds: Int64) -> NIODeadline {
        start + .milliseconds(milliseconds)
    }

    @Test func theFirstReadHasTheRequestsDeadline() {
        var deadline = ReadDeadline(at(300))
        #expect(deadline.reading(at: at(10)) == at(300))
    }

    @Test func theTimeAReaderHoldsEachPieceMovesTheDeadline() {
        // A body sent at once, read by a reader that spends 200 ms with each of five pieces:
        // a second of its own time, against a deadline 300 ms away.
        var deadline = ReadDeadline(at(300))
        var now: Int64 = 10
        for _ in 0..<5 {
            #expect(deadline.reading(at: at(now)) > at(now), "each read still has time left")
            now += 1
            deadline.handedOut(at: at(now))
            now += 200
        }
        #expect(deadline.reading(at: at(now)) == at(300 + 5 * 200))
    }

    @Test func theTimeSpentWaitingForPiecesAddsUpToTheDeadline() {
        // A server that trickles: each piece takes 100 ms to come, and the reader takes none.
        var deadline = ReadDeadline(at(300))
        var now: Int64 = 0
        var reads = 0
        while deadline.reading(at: at(now)) > at(now) {
            now += 100
            deadline.handedOut(at: at(now))
            reads += 1
        }
        #expect(reads == 3)
        #expect(deadline.reading(at: at(now)) == at(300))
    }

    @Test func aReadThatStartsAtOnceMovesNothing() {
        var deadline = ReadDeadline(at(300))
        _ = deadline.reading(at: at(0))
        deadline.handedOut(at: at(50))
        #expect(deadline.reading(at: at(50)) == at(300))
        #expect(deadline.reading(at: at(80)) == at(300), "a second read without a piece handed out in between moves nothing")
    }
}
