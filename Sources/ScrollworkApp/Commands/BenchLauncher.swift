import ArgumentParser
import CommandLineMain
import Foundation
import ScrollworkReader

/// `scrollwork bench …`: the benchmarks, which are an executable of their own,
/// `scrollwork-bench`, so that the reader carries none of their code (the simulation, the
/// fixtures, the peers' harnesses). This command replaces itself with the `scrollwork-bench`
/// that sits beside this executable, passing every argument on, `--help` included.
struct BenchLauncher: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Scrollwork against the alternatives on the same data, in the same run (runs scrollwork-bench).",
        discussion: """
            The benchmarks are the executable scrollwork-bench, built beside scrollwork: \
            `swift build -c release` builds both; `scrollwork bench --help` lists them.
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "The benchmark and its options, passed to scrollwork-bench.")
    var arguments: [String] = []

    func run() throws {
        let bench = SiblingExecutable.url(named: "scrollwork-bench")
        guard FileManager.default.isExecutableFile(atPath: bench.path) else {
            Console.printError("""
                scrollwork bench: the benchmarks are the executable scrollwork-bench, which is not \
                beside this one (\(bench.deletingLastPathComponent().path)). Build it with \
                `swift build -c release --product scrollwork-bench`, or build every product with \
                `swift build -c release`.
                """)
            throw ExitCode.failure
        }
        let argv = ([bench.path] + arguments).map { strdup($0) } + [nil]
        execv(bench.path, argv)
        // execv returns only when it failed.
        Console.printError("scrollwork bench: cannot run \(bench.path): \(String(cString: strerror(errno)))")
        throw ExitCode.failure
    }
}
