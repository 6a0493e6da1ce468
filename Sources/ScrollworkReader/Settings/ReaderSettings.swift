import FeedSync
import Foundation
import TerminalUI

/// The reader's settings: what `config.toml` says, and the defaults for what it leaves out.
///
/// Every field has a default, so a missing file, or an empty one, is ``defaults``. The file
/// and its keys are described by ``example``, which `scrollwork config --example`
/// prints.
package struct ReaderSettings: Sendable, Equatable {
    /// How often every feed is refreshed while the reader runs; `nil` never
    /// (`refresh_interval`, in minutes, 0 for never; default 30 minutes).
    var refreshInterval: Duration?
    /// Whether a post counts as read once it has been on screen, fully and still enough to
    /// read, for ``markReadAfter`` (`mark_read_on_scroll`; default off).
    var markReadOnScroll: Bool
    /// How long a post must be on screen to count as read when ``markReadOnScroll`` is on
    /// (`mark_read_after`, in seconds; default 1.5 s).
    var markReadAfter: Duration
    /// Whether the post list is grouped by day, under headings that stay at the top as their
    /// posts scroll (`group_by_day`; default off).
    var groupByDay = false
    /// How pictures are drawn (`image_mode`; default ``ImageMode/auto``).
    package var imageMode: ImageMode
    /// The reader's colours (`[colors]`).
    var colors: ReaderColors
    /// The reader's keys (`[keys]`).
    var keys: KeyBindings
    /// The feed server to sync with (`[account]`), for those who keep their setup in dotfiles;
    /// it wins over an account added with `scrollwork account add`.
    package var account: SyncAccount? = nil
    /// Saved searches shown as feeds (`[query_feeds]`), in the file's order.
    package var queryFeeds: [QueryFeed] = []

    /// The settings with no settings file.
    static let defaults = ReaderSettings(
        refreshInterval: .seconds(30 * 60), markReadOnScroll: false, markReadAfter: .milliseconds(1500),
        imageMode: .auto, colors: .defaults, keys: .defaults)

    /// The allowed `refresh_interval`, in minutes: up to a week.
    static let refreshIntervalMinutes = 0...10_080
    /// The allowed `mark_read_after`, in seconds: long enough to see a title, at most a minute.
    static let markReadAfterSeconds = 0.1...60.0

    /// How pictures are drawn in the terminal (`image_mode`): what the terminal answers it
    /// draws, or one ``PictureProtocol`` whatever it answers. Written as `auto` or as the
    /// protocol's name (`kitty`, `sixel`, `iterm`, `blocks`, `sextants`, `none`).
    package enum ImageMode: RawRepresentable, Hashable, Sendable {
        /// What the terminal answers it draws (or its environment says): kitty graphics, sixel or
        /// iTerm2 images at its pixel resolution, else half blocks.
        case auto
        /// The protocol's pictures whatever the terminal answers; kitty's, inside tmux, by
        /// Unicode placeholders through its passthrough.
        case always(PictureProtocol)

        /// Every value: `auto`, then each protocol's.
        package static var allCases: [ImageMode] { [.auto] + PictureProtocol.allCases.map(ImageMode.always) }

        package init?(rawValue: String) {
            if rawValue == "auto" {
                self = .auto
            } else if let picture = PictureProtocol(rawValue: rawValue) {
                self = .always(picture)
            } else {
                return nil
            }
        }

        package var rawValue: String {
            switch self {
            case .auto: "auto"
            case .always(let picture): picture.rawValue
            }
        }
    }
}

extension ReaderSettings {
    /// The settings in `file`, or ``defaults`` when there is no such file; nothing is created.
    ///
    /// - Parameter name: How errors name the file; its path by default.
    /// - Throws: ``SettingsError`` naming the file, each line at fault and what is wrong.
    package static func load(from file: URL, name: String? = nil) throws(SettingsError) -> ReaderSettings {
        let name = name ?? file.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) else { return .defaults }
        guard !isDirectory.boolValue else {
            throw SettingsError(file: name, problems: [SettingsProblem(kind: .unreadable("it is a directory"))])
        }
        // Read no further than a settings file may go: a huge file, or one that never ends
        // (/dev/zero), is refused by its size or as it passes the limit, with that reason.
        let data: [UInt8]
        do {
            data = try FileBytes.read(file.path, limit: TOMLDocument.Limits.maxBytes)
        } catch {
            guard let (size, limit) = error.tooLarge else {
                throw SettingsError(file: name, problems: [SettingsProblem(kind: .unreadable(error.reason))])
            }
            let found = size.map { "it is \($0) bytes" } ?? "it goes on past \(limit) bytes"
            throw SettingsError(file: name, problems: [SettingsProblem(kind: .overLimit("\(found), and a settings file may be at most \(limit) (1 MiB)"))])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw SettingsError(file: name, problems: [SettingsProblem(kind: .unreadable("it is not UTF-8 text"))])
        }
        return try ReaderSettings(toml: text, file: name)
    }
}

/// A saved search shown as a feed: its name in the feed list, and its query in the language of
/// `SearchQuery`.
package struct QueryFeed: Sendable, Hashable {
    package var name: String
    package var query: String

    package init(name: String, query: String) {
        self.name = name
        self.query = query
    }
}

extension ReaderSettings {
    /// Adds `feed` to the `[query_feeds]` of the settings file at `file`, creating the file or
    /// the table if needed, and leaving every other line of the file as it was (comments,
    /// order, spacing): the line goes right after the table's header. The file is replaced
    /// atomically, so a crash leaves the old one or the new one.
    ///
    /// - Throws: ``SettingsError`` when the file cannot be read or written, or when the result
    ///   would not read back as settings (the file had an error already).
    package static func saving(_ feed: QueryFeed, in file: URL) throws(SettingsError) {
        var text = ""
        if FileManager.default.fileExists(atPath: file.path) {
            guard let data = FileManager.default.contents(atPath: file.path), let read = String(validating: data, as: UTF8.self) else {
                throw SettingsError(file: file.path, problems: [SettingsProblem(kind: .unreadable("it cannot be read as UTF-8 text"))])
            }
            text = read
        }
        let entry = "\(TOMLText.quoted(feed.name)) = \(TOMLText.quoted(feed.query))"
        var lines = text.isEmpty ? [] : text.components(separatedBy: "\n")
        if let header = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("[query_feeds]") }) {
            lines.insert(entry, at: header + 1)
        } else {
            if lines.last == "" { lines.removeLast() }
            if !lines.isEmpty { lines.append("") }
            lines += ["[query_feeds]", entry, ""]
        }
        let result = lines.joined(separator: "\n")
        let settings = try ReaderSettings(toml: result, file: file.path)
        guard settings.queryFeeds.contains(feed) else {
            throw SettingsError(file: file.path, problems: [SettingsProblem(kind: .unwritable("the saved search would not read back"))])
        }
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(result.utf8).write(to: file, options: .atomic)
        } catch {
            // Foundation's message starts "The operation could not be completed."; the reason
            // is the system's error underneath, else the rest of the message.
            let underlying = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).flatMap { $0.domain == NSPOSIXErrorDomain ? $0 : nil }
            let boilerplate = "The operation could not be completed. "
            let message = error.localizedDescription
            let reason = underlying.map { String(cString: strerror(Int32($0.code))) }
                ?? (message.hasPrefix(boilerplate) ? String(message.dropFirst(boilerplate.count)) : message)
            throw SettingsError(file: file.path, problems: [SettingsProblem(kind: .unwritable(reason))])
        }
    }
}
