import ArgumentParser
import Foundation
import ScrollworkReader

extension ParsableCommand {
    /// Runs this root command as the process's main and exits, the way every executable of
    /// the package does: the allocator's arenas are capped first (``MallocArenas``), then
    /// `prelude` may take the arguments itself (returning true when it did), else they are
    /// parsed and the command runs, awaited if it is asynchronous. Bad usage exits with status
    /// 2 (ArgumentParser's default is 64), so every command follows the same convention; any
    /// other error, as ArgumentParser says.
    @MainActor
    package static func runAsMainExitingTwoOnBadUsage(prelude: @MainActor () async throws -> Bool = { false }) async -> Never {
        MallocArenas.cap()
        do {
            if try await prelude() { exit(withError: nil) }
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            exit(withError: nil)
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
