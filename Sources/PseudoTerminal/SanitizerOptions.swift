import Foundation

/// The sanitizer's settings of this process (`Scripts/sanitize.sh` exports them), for the
/// children it starts with an environment of their own (the tests' and the benchmarks'): a
/// child built under the same sanitizer then runs with the same options and suppressions,
/// instead of failing on memory the Swift runtime keeps by design. Without a sanitizer, no
/// such variable is set and nothing changes.
package enum SanitizerOptions {
    /// The variables passed on, when this process has them.
    static let names = ["SCROLLWORK_SANITIZE", "ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"]

    /// `environment` with this process's sanitizer settings added where it has none of its own.
    package static func forwarded(into environment: [String: String]) -> [String: String] {
        var environment = environment
        let own = ProcessInfo.processInfo.environment
        for name in names where environment[name] == nil {
            environment[name] = own[name]
        }
        return environment
    }
}
