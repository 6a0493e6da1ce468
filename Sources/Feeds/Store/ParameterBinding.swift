import CSQLiteBinding
import Foundation
import GRDB

/// Values bound one by one to the parameters of a statement GRDB prepared, which then runs
/// through GRDB's `execute()`: its transaction observers (the reader's lists) see the change
/// as they see any other statement's.
///
/// GRDB's `StatementArguments` wraps every value in an existential and unwraps it again,
/// checks the values against the statement and nests a closure for every text it binds. For
/// the store's writes of many posts (a first sync stores 10,000), GRDB's code and the Swift
/// runtime's (retains, releases, metadata lookups) ran 0.78 G instructions of a refresh of
/// 10,000 new posts, whose whole was 2.34 G; 0.38 G since (cachegrind). Here each value goes
/// straight to `sqlite3_bind_*`, text and blobs copied by SQLite, so nothing needs to outlive
/// the call that binds it. Text stops at its first NUL, as GRDB binds it: the same value is
/// stored and found the same whichever binds it.
///
/// Bind every parameter in order, then ``execute()``:
///
/// ```swift
/// var binding = ParameterBinding(statement)
/// binding.bind(feed.databaseValue)
/// binding.bind(values)
/// try binding.execute()
/// ```
struct ParameterBinding: ~Copyable {
    private let statement: Statement
    private let pointer: OpaquePointer
    private let count: CInt
    private var next: CInt = 1
    /// The first binding that failed, and its parameter (only an oversized text or blob can).
    private var failure: (code: CInt, parameter: CInt)?

    /// Starts binding `statement`'s parameters from the first; bindings of an earlier use are
    /// cleared.
    init(_ statement: Statement) {
        self.statement = statement
        pointer = statement.sqliteStatement
        count = scrollwork_parameter_count(UnsafeMutableRawPointer(statement.sqliteStatement))
        // Resets the statement, clears its bindings, and marks its (empty) arguments as
        // bound: GRDB's `execute()` then only resets it, keeping the bindings made below.
        statement.setUncheckedArguments(StatementArguments())
    }

    /// Binds `value` to the next parameter.
    ///
    /// - Precondition: a parameter is left.
    mutating func bind(_ value: DatabaseValue) {
        precondition(next <= count, "more values than the statement's \(count) parameters")
        let raw = UnsafeMutableRawPointer(pointer)
        let code: CInt
        switch value.storage {
        case .null:
            code = scrollwork_bind_null(raw, next)
        case .int64(let number):
            code = scrollwork_bind_int64(raw, next, number)
        case .double(let number):
            code = scrollwork_bind_double(raw, next, number)
        case .string(var text):
            code = text.withUTF8 { bytes in
                guard let length = CInt(exactly: bytes.count) else { return Self.tooBig }
                return bytes.withMemoryRebound(to: CChar.self) { scrollwork_bind_text(raw, next, $0.baseAddress, length) }
            }
        case .blob(let data):
            code = data.withUnsafeBytes { bytes in
                guard let length = CInt(exactly: bytes.count) else { return Self.tooBig }
                return scrollwork_bind_blob(raw, next, bytes.baseAddress, length)
            }
        }
        if code != 0, failure == nil { failure = (code, next) }
        next += 1
    }

    /// Binds `values` to the next parameters, in order.
    mutating func bind(_ values: [DatabaseValue]) {
        for value in values { bind(value) }
    }

    /// Runs the statement through GRDB with the values bound.
    ///
    /// - Precondition: every parameter is bound.
    /// - Throws: `DatabaseError` when a value could not be bound or the statement fails.
    consuming func execute() throws {
        precondition(next == count + 1, "\(next - 1) values for the statement's \(count) parameters")
        if let failure {
            throw DatabaseError(resultCode: ResultCode(rawValue: failure.code),
                                message: failure.code == Self.tooBig ? "parameter \(failure.parameter): a value too big to store"
                                                                     : "parameter \(failure.parameter) could not be bound",
                                sql: statement.sql)
        }
        try statement.execute()
    }

    /// SQLITE_TOOBIG, as SQLite answers a text or blob over its limit.
    private static let tooBig: CInt = 18
}
