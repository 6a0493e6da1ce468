import ArgumentParser
import ScrollworkReader
import ListDiff

/// `scrollwork diff OLD.json NEW.json`: the staged batch updates between two snapshots.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Print the animated batch updates that turn one list snapshot into another, as JSON.",
        discussion: """
            Each file holds an array of sections: [{"id": "s1", "content": ..., "items": \
            [{"id": "a", "content": "x"}, ...]}, ...]. Ids are strings or integers; "content" is \
            any JSON value and optional. The output is {"stages": [...]}: each stage is one \
            UIKit-style batch update (deletes and reloads name positions before it, inserts \
            positions after it), valid on its own. Malformed input exits with status 2.
            """
    )

    @Argument(help: "The snapshot before the change (JSON).")
    var old: String

    @Argument(help: "The snapshot after the change (JSON).")
    var new: String

    func run() throws {
        do {
            Console.printExact(try output())
        } catch {
            printError("scrollwork diff: \(error.description)")
            throw ExitCode(2)
        }
    }

    /// The JSON this command prints, or the reason it cannot, naming the file at fault.
    func output() throws(JSONSnapshot.ReadError) -> String {
        let before = try Self.read(old)
        let after = try Self.read(new)
        return StagesJSON.render(StagedChanges(from: before, to: after))
    }

    private static func read(_ path: String) throws(JSONSnapshot.ReadError) -> JSONSnapshot.Sections {
        do {
            return try JSONSnapshot.read(path: path)
        } catch {
            throw JSONSnapshot.ReadError(description: "\(path): \(error.description)")
        }
    }
}
