import ArgumentParser
import Feeds
import ScrollworkReader

/// Runs `body`, turning a ``Failure`` (or a store or settings error) into its message and
/// exit status 1.
/// It runs on the caller's actor, so the reader's main-actor setup goes through it too.
@discardableResult
nonisolated(nonsending) func reportingFailures<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let failure as Failure {
        printError("scrollwork \(name): \(failure.description)")
        throw ExitCode.failure
    } catch let error as FeedStoreError {
        printError("scrollwork \(name): \(error.description)")
        throw ExitCode.failure
    } catch let error as SettingsError {
        for line in error.description.split(separator: "\n") { printError("scrollwork \(name): \(line)") }
        throw ExitCode.failure
    }
}
