@testable import Feeds
import Foundation
import GRDB
import Testing

@Suite struct ParameterBindingTests {
    /// Every kind of value reads back as bound; empty text and an empty blob stay empty, not
    /// NULL; text outlives the string it was bound from, and stops at a NUL as GRDB's does.
    @Test func everyKindOfValueReadsBackAsBound() throws {
        let queue = try DatabaseQueue()
        let values: [DatabaseValue] = [
            .null, 0.databaseValue, Int64.min.databaseValue, Int64.max.databaseValue, (-1.5).databaseValue,
            Double.greatestFiniteMagnitude.databaseValue, "".databaseValue, "é👩‍👩‍👧\u{0}after NUL".databaseValue,
            String(repeating: "long text ", count: 10_000).databaseValue, Data().databaseValue, Data([0, 1, 255]).databaseValue,
        ]
        let read = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, v)")
            let insert = try db.makeStatement(sql: "INSERT INTO t (n, v) VALUES (?, ?)")
            for (index, value) in values.enumerated() {
                var binding = ParameterBinding(insert)
                binding.bind(index.databaseValue)
                // Bound from a string made here and gone after the call.
                if case .string(let text) = value.storage {
                    binding.bind(String(decoding: Array(text.utf8), as: UTF8.self).databaseValue)
                } else {
                    binding.bind(value)
                }
                try binding.execute()
            }
            return try DatabaseValue.fetchAll(db, sql: "SELECT v FROM t ORDER BY n")
        }
        var expected = values
        expected[7] = "é👩‍👩‍👧".databaseValue
        #expect(read == expected)
        #expect(read.map { $0.isNull } == values.map { $0.isNull })
        // GRDB's own binding stores the same.
        let grdb = try queue.write { db in
            try db.execute(sql: "INSERT INTO t (n, v) VALUES (100, ?)", arguments: [values[7]])
            return try DatabaseValue.fetchOne(db, sql: "SELECT v FROM t WHERE n = 100")
        }
        #expect(grdb == expected[7])
    }

    /// The statement runs through GRDB: a transaction observer sees its change, as the reader's
    /// lists must during a sync.
    @Test func transactionObserversSeeTheChange() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, v)") }
        let observer = ChangeCounter()
        queue.add(transactionObserver: observer)
        try queue.write { db in
            var binding = ParameterBinding(try db.makeStatement(sql: "INSERT INTO t (n, v) VALUES (?, ?)"))
            binding.bind([1.databaseValue, "one".databaseValue])
            try binding.execute()
        }
        #expect(observer.changes == 1)
        #expect(observer.commits == 1)
    }

    /// A statement bound by GRDB's arguments after one bound here runs with its own values.
    @Test func aStatementBoundHereThenByGRDBRunsWithGRDBsValues() throws {
        let queue = try DatabaseQueue()
        let rows = try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER PRIMARY KEY, v)")
            let insert = try db.cachedStatement(sql: "INSERT INTO t (n, v) VALUES (?, ?)")
            var binding = ParameterBinding(insert)
            binding.bind([1.databaseValue, "here".databaseValue])
            try binding.execute()
            try insert.execute(arguments: [2, "GRDB"])
            var again = ParameterBinding(insert)
            again.bind([3.databaseValue, DatabaseValue.null])
            try again.execute()
            return try Row.fetchAll(db, sql: "SELECT n, v FROM t ORDER BY n").map { [$0[0] as DatabaseValue, $0[1] as DatabaseValue] }
        }
        #expect(rows == [[1.databaseValue, "here".databaseValue], [2.databaseValue, "GRDB".databaseValue], [3.databaseValue, .null]])
    }
}

private final class ChangeCounter: TransactionObserver, @unchecked Sendable {
    private(set) var changes = 0
    private(set) var commits = 0
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
    func databaseDidChange(with event: DatabaseEvent) { changes += 1 }
    func databaseDidCommit(_ db: Database) { commits += 1 }
    func databaseDidRollback(_ db: Database) {}
}
