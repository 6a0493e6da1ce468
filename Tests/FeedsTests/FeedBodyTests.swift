import Feeds
import Testing

/// A feed's body as any fetcher makes it: its limit, and its errors in the feed's terms.
@Suite struct FeedBodyTests {
    private struct Broken: Error, CustomStringConvertible {
        var description: String { "reset by peer" }
    }

    private func stream(_ pieces: [[UInt8]], then error: (any Error)? = nil) -> AsyncThrowingStream<[UInt8], any Error> {
        AsyncThrowingStream { continuation in
            for piece in pieces { continuation.yield(piece) }
            continuation.finish(throwing: error)
        }
    }

    /// What reading `body` to its end gives: the bytes, or the error it failed with, and
    /// whether asking again after that gives nothing more.
    private func read(_ body: FeedBody) async -> (bytes: [UInt8], error: (any Error)?, endsThere: Bool) {
        var iterator = body.makeAsyncIterator()
        var bytes: [UInt8] = []
        do {
            while let piece = try await iterator.next() { bytes += piece }
        } catch {
            let after = try? await iterator.next()
            return (bytes, error, after == nil)
        }
        return (bytes, nil, (try? await iterator.next()) == nil)
    }

    @Test func handsOutThePiecesUpToItsLimit() async {
        let body = FeedBody(stream([[1, 2], [3]]), limit: 3)
        let (bytes, error, endsThere) = await read(body)
        #expect(bytes == [1, 2, 3])
        #expect(error == nil)
        #expect(endsThere)
    }

    @Test func aPiecePastTheLimitFailsAsTooLarge() async {
        let (bytes, error, endsThere) = await read(FeedBody(stream([[1, 2], [3, 4]]), limit: 3))
        #expect(bytes == [1, 2])
        #expect(error as? FeedFetchError == .tooLarge(limit: 3))
        #expect(endsThere, "nothing more after the failure")
    }

    @Test func theSourcesErrorsArriveInTheFeedsTerms() async {
        let cases: [(any Error, FeedFetchError)] = [
            (FeedFetchError.timedOut, .timedOut),
            (CancellationError(), .cancelled),
            (Broken(), .connectionFailed("reset by peer")),
        ]
        for (thrown, expected) in cases {
            let (bytes, error, _) = await read(FeedBody(stream([[1]], then: thrown)))
            #expect(bytes == [1])
            #expect(error as? FeedFetchError == expected)
        }
        let translated = FeedBody(stream([], then: Broken()), translatingErrors: { _ in .status(500) })
        #expect(await read(translated).error as? FeedFetchError == .status(500))
    }
}
