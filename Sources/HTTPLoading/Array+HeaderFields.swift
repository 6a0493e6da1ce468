import Foundation

extension Array where Element == (name: String, value: String) {
    /// The first value of header `name`, compared case-insensitively.
    func value(named name: String) -> String? {
        first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
