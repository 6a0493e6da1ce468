import GRDB

/// The rows of a query, now and after every committed change that alters them: what a list
/// diffs against what it shows. Made by ``FeedStore/observeRows(_:)``.
public typealias EntryRowsObservation = StoreObservation<[EntryRow]>

/// A value read from the store, now and after every committed change that alters it. Made by
/// ``FeedStore/observeRows(_:)`` and ``FeedStore/observeFeedSummaries()``.
///
/// - The first element is the current value; each later one follows a committed
///   transaction whose changes alter it. Writes that leave it equal (another feed's
///   entries beyond the page, a refresh time, an unchanged batch) yield nothing.
/// - Bursts coalesce: a consumer that is slower than the writer receives the newest snapshot,
///   never a queue of stale ones.
/// - Snapshots are read on GRDB's reader queues and delivered on the cooperative pool, never on
///   the main actor; a list diffs them there and hands the main actor only the staged update.
/// - Iteration ends when the consuming task is cancelled; an error of the database ends it with
///   ``FeedStoreError``.
public struct StoreObservation<Element: Sendable & Equatable>: AsyncSequence, Sendable {
    let values: AsyncValueObservation<Element>

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: values.makeAsyncIterator())
    }

    /// Hands out values; see ``StoreObservation``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncValueObservation<Element>.Iterator

        public mutating func next() async throws(FeedStoreError) -> Element? {
            do {
                return try await base.next()
            } catch {
                throw FeedStoreError(error)
            }
        }
    }
}

extension FeedStore {
    /// The rows of `query` now, then again after every committed change that alters them; see
    /// ``EntryRowsObservation`` for the contract.
    ///
    /// - Complexity: each snapshot costs one ``rows(_:)`` read, on a reader queue.
    public func observeRows(_ query: EntryQuery) -> EntryRowsObservation {
        observe(Self.selectingRows(query))
    }

    /// The value `read` returns now, then again after every committed change that alters it.
    func observe<Value: Sendable & Equatable>(_ read: @escaping @Sendable (Database) throws -> Value) -> StoreObservation<Value> {
        let observation = ValueObservation.tracking(read).removeDuplicates()
        return StoreObservation(values: observation.values(in: writer, bufferingPolicy: .bufferingNewest(1)))
    }
}
