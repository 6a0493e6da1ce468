import Foundation

/// The package's executables find each other beside themselves: `swift build` puts every
/// product in one directory (`scrollwork bench` runs `scrollwork-bench`, whose whole-process
/// cases run `scrollwork`).
package enum SiblingExecutable {
    /// The executable `name` in this process's executable's directory (symbolic links
    /// resolved), whether or not it exists.
    package static func url(named name: String) -> URL {
        var own = Bundle.main.executableURL
        #if os(Linux)
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { own = URL(fileURLWithPath: path) }
        #endif
        let directory = (own ?? URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL).deletingLastPathComponent()
        return directory.appendingPathComponent(name)
    }
}
