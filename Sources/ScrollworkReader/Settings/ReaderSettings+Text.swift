extension ReaderSettings {
    /// The example settings file that `scrollwork config --example` prints: every setting at
    /// its default, each explained. Reading it back gives ``defaults``.
    package static var example: String {
        defaults.toml(explained: true)
    }

    /// The settings as a settings file that reads back as the same settings: every setting
    /// written out, explained in comments when `explained`.
    package func toml(explained: Bool) -> String {
        var lines: [String] = []
        func comment(_ text: String) {
            if explained { lines.append(contentsOf: text.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)".trimmingTrailingSpaces() }) }
        }
        func blank() {
            if explained { lines.append("") }
        }
        /// A blank line before a table, unless its comment is there already.
        func separate() {
            if !explained { lines.append("") }
        }
        comment("""
            Scrollwork reader settings.

            The reader reads $XDG_CONFIG_HOME/scrollwork/config.toml (else
            ~/.config/scrollwork/config.toml), or the file named by `--config PATH`. Every
            setting is optional: one left out keeps the default shown here. Check a file with
            `scrollwork config --check`.
            """)
        blank()
        comment("Refresh every feed this often while the reader runs, in minutes (0 to 10080); 0 never.")
        lines.append("refresh_interval = \(refreshInterval.map { $0.components.seconds / 60 } ?? 0)")
        blank()
        comment("""
            Mark a post read once it has been fully on screen, with the list moving slowly
            enough to read, for mark_read_after seconds (0.1 to 60). A fling that sweeps past a
            post does not mark it.
            """)
        lines.append("mark_read_on_scroll = \(markReadOnScroll)")
        lines.append("mark_read_after = \(Self.seconds(markReadAfter))")
        blank()
        comment("""
            Group the post list by day, under headings (Today, Yesterday, then dates) that stay
            at the top while their posts scroll under them. A search ordered by relevance is
            not grouped. The key group_by_day turns it on and off in the reader.
            """)
        lines.append("group_by_day = \(groupByDay)")
        blank()
        comment("""
            How pictures are drawn: "auto" (at the terminal's own pixel resolution, with kitty
            graphics, sixel or iTerm2 images, where the terminal answers that it has them;
            else blocks), "kitty", "sixel" or "iterm" (whatever the terminal answers; kitty
            inside tmux needs allow-passthrough and kitty 0.28 or later, or Ghostty, outside),
            "blocks" (half blocks, in any terminal), "sextants" (six pixels a cell, where the
            font has Unicode 13's sextant mosaics), or "none".
            """)
        lines.append("image_mode = \(TOMLText.quoted(imageMode.rawValue))")
        blank()
        comment("""
            Colours: "#rrggbb", a palette index from 0 to 255 (0 to 15 are your terminal
            theme's own colours), one of those 16 by name (black, red, green, yellow, blue,
            magenta, cyan, white, and bright_ before each; gray is bright_black), or
            "default" for the terminal's own.
            """)
        separate()
        lines.append("[colors]")
        let colorSummaries = [
            "accent": "the title bar and headings", "dim": "feed names, dates, summaries, the status line",
            "unread": "the unread mark", "selection_background": "the background of the post under the cursor",
        ]
        lines += Self.aligned(ReaderColors.fields.map { field in
            (code: "\(field.name) = \(ColorNotation.toml(colors[keyPath: field.keyPath]))", comment: colorSummaries[field.name] ?? "")
        }, explained: explained)
        blank()
        comment("""
            Keys: an action = a key, or a list of keys. A key is one character ("j", "R", "?")
            or a name: space, enter, escape, tab, backspace, up, down, left, right, home, end,
            pageup, pagedown, insert, delete, f1 to f12; with ctrl+, alt+ or shift+ before it
            ("ctrl+l"). Letters keep their case: "R" is Shift-R. An action set here gets
            exactly the keys given ([] for none), and a key given here is taken from the action
            that had it by default; one key given to two actions is an error.
            Ctrl-C (quit) and Ctrl-Z (suspend) always work and cannot be bound.
            """)
        separate()
        lines.append("[keys]")
        lines += Self.aligned(ReaderAction.allCases.map { action in
            let names = self.keys.keys(for: action).map { TOMLText.quoted(KeyNotation.name(of: $0)) }
            let value = names.count == 1 ? names[0] : "[" + names.joined(separator: ", ") + "]"
            return (code: "\(action.rawValue) = \(value)", comment: action.summary)
        }, explained: explained)
        blank()
        comment("""
            The feed server to sync with, as `scrollwork account add` sets it, for a setup kept
            in dotfiles: kind "freshrss" (its address; .../api/greader.php is added) or
            "greader" (another server of the Google Reader API, at the API's own address), your
            user name, and a command that prints the API password (never stored). It wins over
            an account added with `scrollwork account add`.
            """)
        let accountLines = account.map { account in
            ["[account]", "kind = \(TOMLText.quoted(account.kind.rawValue))", "url = \(TOMLText.quoted(account.serverURL.absoluteString))",
             "user = \(TOMLText.quoted(account.username))"]
                + (account.passwordCommand.map { ["password_command = \(TOMLText.quoted($0))"] } ?? [])
        }
        if let accountLines {
            separate()
            lines += accountLines
        } else if explained {
            lines += ["# [account]", "# kind = \"freshrss\"", "# url = \"https://rss.example.com/\"", "# user = \"alice\"",
                      "# password_command = \"pass show freshrss\""]
        }
        blank()
        comment("""
            Saved searches, shown as feeds in the feed list with their unread counts: a name =
            a query in the search language (`scrollwork search --help`). S in the reader saves
            the search on screen here.
            """)
        if !queryFeeds.isEmpty {
            separate()
            lines.append("[query_feeds]")
            lines += queryFeeds.map { "\(TOMLText.quoted($0.name)) = \(TOMLText.quoted($0.query))" }
        } else if explained {
            lines += ["# [query_feeds]", "# \"Databases\" = \"sqlite OR postgres newer:30d\"", "# \"Unread Rust\" = \"rust is:unread\""]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Lines with their comments lined up after them, or bare when not `explained`.
    private static func aligned(_ lines: [(code: String, comment: String)], explained: Bool) -> [String] {
        guard explained else { return lines.map(\.code) }
        let width = lines.map(\.code.count).max() ?? 0
        return lines.map { $0.code + String(repeating: " ", count: width - $0.code.count) + "  # " + $0.comment }
    }

    /// A duration in seconds as a TOML float, such as `1.5`.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(Double(seconds) + Double(attoseconds) / 1e18)"
    }
}

/// Strings written as TOML.
enum TOMLText {
    /// `text` as a TOML basic string. The JSON string literal is one: TOML's basic strings
    /// take the same escapes (`\"`, `\\`, `\n`, `\r`, `\t`, `\uXXXX`), so a value reads back
    /// the same, controls included.
    static func quoted(_ text: String) -> String {
        JSONText.quoted(text)
    }
}

extension StringProtocol {
    /// The text without spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        String(reversed().drop { $0 == " " }.reversed())
    }
}
