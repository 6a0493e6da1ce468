import ArgumentParser
import Foundation
import ListDiff
import ScrollworkTestSupport
import Testing
@testable import ScrollworkApp

@Suite struct DiffCommandTests {
    /// Writes `text` to a fresh temporary file and returns its path.
    private let scratch = ScratchDirectory("scrollwork-diff")

    private func file(_ text: String) throws -> String {
        try scratch.file(text, suffix: "json").path
    }

    private func command(_ old: String, _ new: String) throws -> DiffCommand {
        try DiffCommand.parse([old, new])
    }

    @Test func printsEveryKeyOfEveryStage() throws {
        let old = try file(#"[{"id": "s1", "items": [{"id": "a", "content": "x"}, {"id": "b"}, {"id": "c"}]}]"#)
        let new = try file(#"[{"id": "s1", "items": [{"id": "b"}, {"id": "c"}, {"id": "a", "content": "y"}, {"id": 7}]}]"#)
        let output = try command(old, new).output()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let stages = try #require(json["stages"] as? [[String: Any]])
        // a moves behind b and c and changes: moved in the first stage, reloaded at its new place in the second.
        try #require(stages.count == 2)
        #expect(Set(stages[0].keys) == [
            "sectionDeletes", "sectionInserts", "sectionMoves", "sectionReloads", "deletes", "inserts", "moves", "reloads",
        ])
        #expect(stages[0]["moves"] as? [[[Int]]] == [[[0, 0], [0, 2]]])
        #expect(stages[0]["inserts"] as? [[Int]] == [[0, 3]])
        #expect(stages[1]["reloads"] as? [[Int]] == [[0, 2]])
        #expect(stages[1]["moves"] as? [[[Int]]] == [])
    }

    @Test func sectionContentIsOptionalAndCompared() throws {
        let old = try file(#"[{"id": "s1", "content": {"title": "A"}, "items": []}, {"id": 2, "items": []}]"#)
        let new = try file(#"[{"id": "s1", "content": {"title": "B"}, "items": []}, {"id": 2, "items": []}]"#)
        #expect(try command(old, new).output() == """
            {"stages": [
              {"sectionDeletes": [], "sectionInserts": [], "sectionMoves": [], "sectionReloads": [0], \
            "deletes": [], "inserts": [], "moves": [], "reloads": []}
            ]}
            """)
        #expect(try command(old, old).output() == #"{"stages": []}"#)
    }

    @Test(arguments: [
        (#"[{"id": "s", "items": [{"content": 1}]}]"#, #"at [0].items[0]: missing key "id""#),
        (#"[{"id": "s", "items": [{"id": 1.5}]}]"#, "at [0].items[0].id: expected a string or an integer"),
        (#"{"id": "s"}"#, "at the top level: expected an array of sections"),
        (#"[{"id": "s", "items": 3}]"#, "at [0].items: expected an array of items"),
        (#"[{"items": []}]"#, #"at [0]: missing key "id""#),
        ("[{\"id\": \"s\",\n \"items\": [}]", "not valid JSON: Invalid value around line 2, column 12."),
        ("", "not valid JSON"),
    ])
    func malformedInputNamesTheFileAndTheProblem(text: String, problem: String) throws {
        let good = try file("[]")
        let bad = try file(text)
        let diff = try command(good, bad)
        #expect(throws: JSONSnapshot.ReadError.self) { try diff.output() }
        do {
            _ = try diff.output()
        } catch {
            #expect(error.description.hasPrefix("\(bad): "))
            #expect(error.description.contains(problem), "\(error.description)")
        }
    }

    @Test func malformedInputExitsWithStatusTwo() throws {
        let bad = try file("not json")
        #expect(throws: ExitCode(2)) { try command(bad, bad).run() }
        #expect(throws: ExitCode(2)) { try command("/nonexistent/old.json", bad).run() }
    }
}
