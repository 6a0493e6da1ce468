import FeedSync
import Foundation
import TerminalUI

extension ReaderSettings {
    /// The settings at the top level of the file, in the order the example gives them.
    static let settingNames = ["refresh_interval", "mark_read_on_scroll", "mark_read_after", "group_by_day", "image_mode", "colors", "keys", "account", "query_feeds"]

    /// The keys of `[account]`.
    static let accountNames = ["kind", "url", "user", "password_command"]

    /// Reads settings from the TOML text of a settings file; what it leaves out keeps its
    /// default.
    ///
    /// Every problem in the file is reported, not only the first, except that a syntax error or
    /// a file beyond ``TOMLDocument/Limits`` stops the reading, and only the first key conflict
    /// in `[keys]` is named.
    ///
    /// - Parameter file: How errors name the file.
    /// - Throws: ``SettingsError`` with each problem and its line.
    package init(toml text: String, file: String) throws(SettingsError) {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            switch error {
            case .syntax(let message, let line, let column):
                throw SettingsError(file: file, problems: [SettingsProblem(line: line, column: column, kind: .syntax(message))])
            case .overLimit(let message, let line):
                throw SettingsError(file: file, problems: [SettingsProblem(line: line, kind: .overLimit(message))])
            }
        }
        var reader = SettingsReader(document: document)
        let settings = reader.read()
        guard reader.problems.isEmpty else {
            throw SettingsError(file: file, problems: reader.problems.sorted { ($0.line ?? 0) < ($1.line ?? 0) })
        }
        self = settings
    }
}

/// One pass over a parsed settings file, collecting the settings and every problem.
private struct SettingsReader {
    let document: TOMLDocument
    var problems: [SettingsProblem] = []

    mutating func read() -> ReaderSettings {
        var settings = ReaderSettings.defaults
        for (key, value) in document.root {
            switch key {
            case "refresh_interval":
                if let minutes = integer(value, at: [key], expected: "a whole number of minutes", in: ReaderSettings.refreshIntervalMinutes,
                                         rangeText: "0 (never) to 10080 minutes (a week)") {
                    settings.refreshInterval = minutes == 0 ? nil : .seconds(minutes * 60)
                }
            case "mark_read_on_scroll":
                guard case .boolean(let on) = value else { wrongType(value, at: [key], expected: "true or false"); continue }
                settings.markReadOnScroll = on
            case "mark_read_after":
                if let seconds = seconds(value, at: [key]) { settings.markReadAfter = .milliseconds(Int((seconds * 1000).rounded())) }
            case "group_by_day":
                guard case .boolean(let on) = value else { wrongType(value, at: [key], expected: "true or false"); continue }
                settings.groupByDay = on
            case "image_mode":
                if let mode = imageMode(value, at: [key]) { settings.imageMode = mode }
            case "colors":
                guard case .table(let entries) = value else { wrongType(value, at: [key], expected: "a table such as [colors]"); continue }
                readColors(entries, into: &settings.colors)
            case "keys":
                guard case .table(let entries) = value else { wrongType(value, at: [key], expected: "a table such as [keys]"); continue }
                if let keys = keyBindings(entries) { settings.keys = keys }
            case "account":
                guard case .table(let entries) = value else { wrongType(value, at: [key], expected: "a table such as [account]"); continue }
                settings.account = account(entries)
            case "query_feeds":
                guard case .table(let entries) = value else { wrongType(value, at: [key], expected: "a table such as [query_feeds]"); continue }
                settings.queryFeeds = queryFeeds(entries)
            default:
                report([key], .unknownKey(key, suggestion: NearestName.nearest(to: key, among: ReaderSettings.settingNames)))
            }
        }
        return settings
    }

    /// The account of an `[account]` table: `kind`, `url` and `user` required,
    /// `password_command` optional.
    private mutating func account(_ entries: [(key: String, value: TOMLDocument.Value)]) -> SyncAccount? {
        var kind: SyncAccount.Kind?, url: URL?, user: String?, command: String?
        let kinds = SyncAccount.Kind.allCases.map { TOMLText.quoted($0.rawValue) }.joined(separator: " or ")
        for (key, value) in entries {
            let path = ["account", key]
            guard case .string(let text) = value else {
                if ReaderSettings.accountNames.contains(key) { wrongType(value, at: path, expected: "a string") } else {
                    report(path, .unknownKey("account." + key, suggestion: NearestName.nearest(to: key, among: ReaderSettings.accountNames)))
                }
                continue
            }
            switch key {
            case "kind":
                kind = SyncAccount.Kind(rawValue: text)
                if kind == nil { report(path, .invalidValue(key: "account.kind", value: TOMLText.quoted(text), expected: kinds)) }
            case "url":
                url = URL(string: text).flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") && $0.host != nil ? $0 : nil }
                if url == nil { report(path, .invalidValue(key: "account.url", value: TOMLText.quoted(text), expected: "an http or https address")) }
            case "user":
                user = text.isEmpty ? nil : text
                if user == nil { report(path, .invalidValue(key: "account.user", value: "\"\"", expected: "your user name on the server")) }
            case "password_command":
                command = text.isEmpty ? nil : text
            default:
                report(path, .unknownKey("account." + key, suggestion: NearestName.nearest(to: key, among: ReaderSettings.accountNames)))
            }
        }
        for (name, present) in [("kind", kind != nil), ("url", url != nil), ("user", user != nil)] where !present {
            if !entries.contains(where: { $0.key == name }) {
                report(["account"], .invalidValue(key: "account", value: "[account]", expected: "kind, url and user all given"))
                break
            }
        }
        guard let kind, let url, let user else { return nil }
        return SyncAccount(kind: kind, serverURL: url, username: user, passwordCommand: command)
    }

    /// The saved searches of `[query_feeds]`: a name = a query, in the file's order.
    private mutating func queryFeeds(_ entries: [(key: String, value: TOMLDocument.Value)]) -> [QueryFeed] {
        var feeds: [(line: Int, feed: QueryFeed)] = []
        for (name, value) in entries {
            let path = ["query_feeds", name]
            guard case .string(let query) = value else { wrongType(value, at: path, expected: "a search, as a string"); continue }
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty, !query.trimmingCharacters(in: .whitespaces).isEmpty else {
                report(path, .invalidValue(key: "query_feeds", value: TOMLText.quoted(name) + " = " + TOMLText.quoted(query),
                                           expected: "a name and a search, neither empty"))
                continue
            }
            feeds.append((document.line(of: path) ?? 0, QueryFeed(name: name, query: query)))
        }
        return feeds.sorted { $0.line < $1.line }.map(\.feed)
    }

    private mutating func report(_ path: [String], _ kind: SettingsProblem.Kind) {
        problems.append(SettingsProblem(line: document.line(of: path), kind: kind))
    }

    private mutating func wrongType(_ value: TOMLDocument.Value, at path: [String], expected: String) {
        report(path, .wrongType(key: path.joined(separator: "."), expected: expected, found: value.typeName))
    }

    private mutating func integer(_ value: TOMLDocument.Value, at path: [String], expected: String, in range: ClosedRange<Int>,
                                  rangeText: String) -> Int? {
        guard case .integer(let number) = value else { wrongType(value, at: path, expected: expected); return nil }
        guard range.contains(number) else {
            report(path, .invalidValue(key: path.joined(separator: "."), value: "\(number)", expected: rangeText))
            return nil
        }
        return number
    }

    private mutating func seconds(_ value: TOMLDocument.Value, at path: [String]) -> Double? {
        let seconds: Double
        let shown: String
        switch value {
        case .integer(let number): (seconds, shown) = (Double(number), "\(number)")
        case .float(let number): (seconds, shown) = (number, "\(number)")
        default: wrongType(value, at: path, expected: "a number of seconds"); return nil
        }
        guard ReaderSettings.markReadAfterSeconds.contains(seconds) else {
            report(path, .invalidValue(key: path.joined(separator: "."), value: shown, expected: "0.1 to 60 seconds"))
            return nil
        }
        return seconds
    }

    private mutating func imageMode(_ value: TOMLDocument.Value, at path: [String]) -> ReaderSettings.ImageMode? {
        let names = ReaderSettings.ImageMode.allCases.map(\.rawValue)
        let expected = names.map { "\"\($0)\"" }.joined(separator: ", ")
        guard case .string(let name) = value else { wrongType(value, at: path, expected: "one of \(expected)"); return nil }
        guard let mode = ReaderSettings.ImageMode(rawValue: name.lowercased()) else {
            let suggestion = NearestName.nearest(to: name, among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
            report(path, .invalidValue(key: path.joined(separator: "."), value: TOMLText.quoted(name), expected: "one of \(expected)\(suggestion)"))
            return nil
        }
        return mode
    }

    private mutating func readColors(_ entries: [(key: String, value: TOMLDocument.Value)], into colors: inout ReaderColors) {
        let expected = "\"#rrggbb\", a palette index from 0 to 255, or a colour name such as \"red\" or \"bright_blue\""
        for (name, value) in entries {
            let path = ["colors", name]
            guard let field = ReaderColors.fields.first(where: { $0.name == name }) else {
                let suggestion = NearestName.nearest(to: name, among: ReaderColors.fields.map(\.name)).map { "colors.\($0)" }
                report(path, .unknownKey("colors.\(name)", suggestion: suggestion))
                continue
            }
            let parsed: (color: TerminalColor?, shown: String)
            switch value {
            case .string(let text): parsed = (ColorNotation.parse(text), TOMLText.quoted(text))
            case .integer(let index): parsed = (ColorNotation.color(index: index), "\(index)")
            default: wrongType(value, at: path, expected: expected); continue
            }
            guard let color = parsed.color else {
                report(path, .invalidValue(key: "colors.\(name)", value: parsed.shown, expected: expected))
                continue
            }
            colors[keyPath: field.keyPath] = color
        }
    }

    private mutating func keyBindings(_ entries: [(key: String, value: TOMLDocument.Value)]) -> KeyBindings? {
        var overrides: [ReaderAction: [KeyPress]] = [:]
        let problemsBefore = problems.count
        for (name, value) in entries {
            let path = ["keys", name]
            guard let action = ReaderAction(rawValue: name) else {
                report(path, .unknownAction(name, suggestion: NearestName.nearest(to: name, among: ReaderAction.allCases.map(\.rawValue))))
                continue
            }
            let names: [TOMLDocument.Value]
            switch value {
            case .string: names = [value]
            case .array(let values): names = values
            default: wrongType(value, at: path, expected: "a key such as \"j\", or a list of keys such as [\"j\", \"down\"]"); continue
            }
            var presses: [KeyPress] = []
            for element in names {
                guard case .string(let keyName) = element else {
                    wrongType(element, at: path, expected: "a list of keys written as strings, such as [\"j\", \"down\"]")
                    continue
                }
                do {
                    presses.append(try KeyNotation.parse(keyName))
                } catch {
                    report(path, .badKeyName(key: "keys.\(name)", name: keyName, reason: error.description))
                }
            }
            overrides[action] = presses
        }
        guard problems.count == problemsBefore else { return nil }
        do {
            return try KeyBindings(overriding: overrides)
        } catch {
            let line = [error.first, error.second].compactMap { document.line(of: ["keys", $0.rawValue]) }.max()
            problems.append(SettingsProblem(
                line: line, kind: .duplicateBinding(key: KeyNotation.name(of: error.key), first: error.first, second: error.second)))
            return nil
        }
    }
}
