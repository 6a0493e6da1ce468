// The child process of the parser's leak tests (`Tests/FeedsTests/FuzzFindingTests.swift`): it
// parses the feed in FILE once, then COUNT times more, and prints `grown N`, the bytes the heap
// holds after the COUNT parses beyond what it held before them. A process of its own, so that
// no other test allocates meanwhile.
import CHeapStatistics
import Feeds
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let document = FileManager.default.contents(atPath: arguments[1]), let count = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: feeds-heap-helper FILE COUNT\n".utf8))
    exit(2)
}
let bytes = [UInt8](document)

func parse() -> Int {
    var parser = FeedParser()
    let batches = (try? parser.consume(bytes)) ?? []
    return batches.joined().count + ((try? parser.finish())?.entries.count ?? 0)
}

let entries = parse()
let before = scrollwork_heap_bytes_in_use()
for _ in 0..<count { _ = parse() }
let after = scrollwork_heap_bytes_in_use()
print("entries \(entries)")
print("heap \(before)")
print("grown \(Int(after) - Int(before))")
