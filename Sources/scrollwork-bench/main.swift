import ScrollworkBench
// Compiled against the static runtime on Linux, as `scrollwork` is (see Package.swift): this
// import brings the static libraries Foundation needs into the link.
import Foundation

await BenchCommand.runAsMain()
