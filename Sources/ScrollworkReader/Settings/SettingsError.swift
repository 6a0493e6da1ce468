/// What is wrong with a settings file: every problem found, each with its line.
///
/// Its description is one line per problem, `FILE:LINE:COLUMN: what is wrong`, the column
/// only where it is known (TOML syntax errors), in the order of the file.
package struct SettingsError: Error, Equatable, CustomStringConvertible {
    /// The settings file, as the user named it or as it was found.
    let file: String
    /// The problems, in the order of their lines.
    let problems: [SettingsProblem]

    package var description: String {
        problems.map { problem in
            let place = [problem.line, problem.column].compactMap { $0 }.map { ":\($0)" }.joined()
            return "\(file)\(place): \(problem.kind)"
        }.joined(separator: "\n")
    }
}

/// One thing wrong in a settings file, and where.
struct SettingsProblem: Equatable, Sendable {
    /// The line (from 1), when it could be found.
    var line: Int?
    /// The column (from 1), for syntax errors.
    var column: Int?
    /// What is wrong.
    var kind: Kind

    /// What can be wrong. Keys are named with their table, as in `keys.down`.
    enum Kind: Equatable, Sendable, CustomStringConvertible {
        /// The file could not be read (permissions, a directory, not UTF-8).
        case unreadable(String)
        /// The file could not be written (a saved search): why.
        case unwritable(String)
        /// Not TOML: the parser's message.
        case syntax(String)
        /// Beyond what a settings file may hold (``TOMLDocument/Limits``): which limit.
        case overLimit(String)
        /// A key the reader does not know, with the nearest known key if one is close.
        case unknownKey(String, suggestion: String?)
        /// A value of the wrong TOML type.
        case wrongType(key: String, expected: String, found: String)
        /// A value of the right type that is not allowed: out of range, or not one of a set.
        case invalidValue(key: String, value: String, expected: String)
        /// An action name in `[keys]` that is not an action.
        case unknownAction(String, suggestion: String?)
        /// A key name in `[keys]` that cannot be read.
        case badKeyName(key: String, name: String, reason: String)
        /// One key given to two actions in `[keys]`.
        case duplicateBinding(key: String, first: ReaderAction, second: ReaderAction)

        /// What is wrong, with every control character written out (`\r`, `\u{1B}`): the keys
        /// and values it quotes are the file's, and the description reaches the terminal.
        var description: String {
            TOMLDocument.visible(text)
        }

        private var text: String {
            switch self {
            case .unreadable(let reason):
                return "cannot read the settings: \(reason)"
            case .unwritable(let reason):
                return "cannot write the settings: \(reason)"
            case .syntax(let message):
                return "not valid TOML: \(message)"
            case .overLimit(let message):
                return "not read: \(message)"
            case .unknownKey(let key, let suggestion):
                return "unknown setting \(key)" + Self.didYouMean(suggestion)
            case .wrongType(let key, let expected, let found):
                return "\(key) must be \(expected), not \(found)"
            case .invalidValue(let key, let value, let expected):
                return "\(key) = \(value) is not allowed: expected \(expected)"
            case .unknownAction(let name, let suggestion):
                return "keys.\(name) is not an action" + Self.didYouMean(suggestion)
                    + "; the actions are \(ReaderAction.allCases.map(\.rawValue).joined(separator: ", "))"
            case .badKeyName(let key, let name, let reason):
                return "\(key): \"\(name)\" \(reason)"
            case .duplicateBinding(let key, let first, let second):
                return "\"\(key)\" is bound to both keys.\(first.rawValue) and keys.\(second.rawValue); a key can do one thing"
            }
        }

        private static func didYouMean(_ suggestion: String?) -> String {
            suggestion.map { " (did you mean \($0)?)" } ?? ""
        }
    }
}
