import Feeds
import FeedSync
import Foundation
import GRDB
import LoopbackHTTP
import ScrollworkTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `scrollwork sync`, the real process, killed with SIGKILL in the middle of a sync against the
/// scripted server of ``SyncFaultTests``: once while the server has taken a push but not yet
/// answered it, once in the middle of the pull. No queued change is lost, the store stays whole,
/// and the next sync finishes the job. Only a real process can be killed where it stands.
@Suite struct SyncKillTests {
    typealias Reader = SyncFaultTests.ScriptedReader

    /// A data folder with an account on the scripted server, added by the command line.
    struct Folder {
        let url: URL
        var database: URL { url.appendingPathComponent("scrollwork.sqlite") }

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("sync-kill-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        /// A settings-free environment: nothing of the user's reaches the child.
        var environment: [String: String] {
            ["PATH": "/usr/bin:/bin", "HOME": url.path, "XDG_CONFIG_HOME": url.path, "XDG_DATA_HOME": url.path]
        }

        /// Starts `scrollwork ARGUMENTS --database …`.
        func start(_ arguments: [String]) throws -> SpawnedProgram.Running {
            try SpawnedProgram.start(try BuiltExecutable.url(named: "scrollwork").path, arguments + ["--database", database.path],
                                     environment: environment, outputPath: url.appendingPathComponent("output-\(UUID().uuidString)").path)
        }
    }

    /// What a running child came to: the server saw the request it was to be killed in, or the
    /// child ended first.
    enum Event: Sendable {
        case held(String)
        case exited(SpawnedProgram.Result)
    }

    /// Runs `scrollwork sync` until the server holds a request whose path starts with `path`
    /// (unanswered, after `taking` it), kills it there, and returns what it printed.
    static func syncKilled(holding path: String, folder: Folder, reader: Reader,
                           taking: @escaping @Sendable (LoopbackHTTPServer.Request) -> Void = { _ in }) async throws -> String {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        reader.fault = { request in
            guard request.path.hasPrefix(path) else { return nil }
            taking(request)
            continuation.yield(.held(request.path))
            return .silent
        }
        defer { reader.fault = nil }
        let child = try folder.start(["sync"])
        let waiting = Task { _ = continuation.yield(.exited(await child.exit())) }
        var iterator = events.makeAsyncIterator()
        guard case .held = await iterator.next() else {
            Issue.record("the sync ended before it asked for \(path)")
            return ""
        }
        child.send(SIGKILL)
        await waiting.value
        guard case let .exited(result)? = await iterator.next() else { return "" }
        #expect(result.status & 0x7F == SIGKILL, "killed by SIGKILL: status \(result.status), output \(result.output)")
        return result.output
    }

    static func integrity(_ database: URL) throws -> [String] {
        try DatabaseQueue(path: database.path).read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
    }

    @Test func aSyncKilledInThePushOrThePullLosesNoChangeAndTheNextOneFinishes() async throws {
        let folder = try Folder()
        defer { try? FileManager.default.removeItem(at: folder.url) }
        let reader = Reader()
        let server = try await LoopbackHTTPServer.start { request, _ in reader.answer(request) }
        do {
            let added = try await folder.start(["account", "add", "greader", server.url("").absoluteString, "--user", "alice",
                                          "--password-command", "echo \(SyncFaultTests.password)"]).exit()
            try #require(added.status == 0, "account add: \(added.output)")
            let store = try FeedStore(path: folder.database.path)
            let itemA = try #require(try await store.entries(EntryQuery(limit: 10)).first { $0.entry.id == SyncFaultTests.itemA })
            try await store.setRead(true, entries: [itemA.id])
            let mark = try await store.syncMarks().itemsPulledUpTo
            #expect(try await store.queuedStateChanges().map(\.entryID) == [SyncFaultTests.itemA])

            // Killed while the server has taken the change but not said so: the change stays
            // queued, to be pushed again (an absolute action, so repeating it changes nothing).
            _ = try await Self.syncKilled(holding: "/reader/api/0/edit-tag", folder: folder, reader: reader) { request in
                reader.applyMark(Reader.form(request.body))
            }
            #expect(reader.read == [SyncFaultTests.itemA])
            #expect(try await store.queuedStateChanges().map(\.entryID) == [SyncFaultTests.itemA], "the change is kept")
            #expect(try Self.integrity(folder.database) == ["ok"])

            // Killed in the middle of the pull, after the push was answered and dequeued.
            _ = try await Self.syncKilled(holding: "/reader/api/0/stream/items/ids?s=user%2F-%2Fstate%2Fcom.google%2Fstarred",
                                          folder: folder, reader: reader)
            #expect(try await store.queuedStateChanges().isEmpty, "a change the server answered for is dequeued")
            #expect(reader.marks.count == 2, "pushed once more after the first kill, never lost")
            #expect(try await store.syncMarks().itemsPulledUpTo == mark, "no new mark for a pull cut short")
            #expect(try Self.integrity(folder.database) == ["ok"])

            let healed = try await folder.start(["sync"]).exit()
            #expect(healed.status == 0, "\(healed.output)")
            #expect(try await store.queuedStateChanges().isEmpty)
            let entries = try await store.entries(EntryQuery(limit: 10))
            #expect(Dictionary(uniqueKeysWithValues: entries.map { ($0.entry.id, $0.isRead) })
                == [SyncFaultTests.itemA: true, SyncFaultTests.itemB: false])
            #expect(reader.marks.count == 2, "nothing left to push")
            #expect(try await store.syncMarks().itemsPulledUpTo != nil)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }
}
