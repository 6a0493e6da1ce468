import Foundation
import Testing

@testable import ScrollworkApp

/// Work started on a thread of its own and awaited later: its value or its error, however the
/// waiting and the work interleave.
@Suite struct BlockingWorkTests {
    private struct Refused: Error, Equatable {}

    @Test func givesTheValueToWhoeverWaitsBeforeOrAfterItIsDone() async throws {
        let release = DispatchSemaphore(value: 0)
        let work = BlockingWork { () -> Int in
            release.wait()
            return 42
        }
        // Waiting while the work is under way (the waiter may park first or find it done: the
        // value is the same either way).
        async let early = work.value
        release.signal()
        #expect(try await early == 42)
        // And after: at once, as often as asked.
        #expect(try await work.value == 42)
        #expect(try await work.value == 42)
    }

    @Test func givesWhatTheWorkThrew() async {
        let work = BlockingWork { () throws -> Int in throw Refused() }
        await #expect(throws: Refused.self) { try await work.value }
        await #expect(throws: Refused.self) { try await work.value }
    }

    @Test func runsOffTheCallersThreadAndTheMainThread() async throws {
        let caller = Self.thread()
        let work = BlockingWork { pthread_equal(Self.thread(), caller) == 0 && !Thread.isMainThread }
        #expect(try await work.value)
    }

    private static func thread() -> pthread_t { pthread_self() }
}
