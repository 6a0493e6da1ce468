import GRDB

/// The rows of a query, now and after every committed change that alters them: what a list
/// diffs against what it shows. Made by ``FeedStore/observeRows(_:)``.
///
/// - The first element is the current snapshot; each later one follows a committed
///   transaction whose changes alter the rows. Writes that leave them equal (another feed's
///   entries beyond the page, a refresh time, an unchanged batch) yield nothing.
/// - Bursts coalesce: a consumer that is slower than the writer receives the newest snapshot,
///   never a queue of stale ones.
/// - Snapshots are read on GRDB's reader queues and delivered on the cooperative pool, never on
///   the main actor; a list diffs them there and hands the main actor only the staged update.
/// - Iteration ends when the consuming task is cancelled; an error of the database ends it with
///   ``FeedStoreError``.
public struct EntryRowsObservation: AsyncSequence, Sendable {
    public typealias Element = [EntryRow]

    let values: AsyncValueObservation<[EntryRow]>

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: values.makeAsyncIterator())
    }

    /// Hands out snapshots; see ``EntryRowsObservation``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncValueObservation<[EntryRow]>.Iterator

        public mutating func next() async throws(FeedStoreError) -> [EntryRow]? {
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
        let observation = ValueObservation.tracking(Self.selectingRows(query)).removeDuplicates()
        return EntryRowsObservation(values: observation.values(in: writer, bufferingPolicy: .bufferingNewest(1)))
    }
}
