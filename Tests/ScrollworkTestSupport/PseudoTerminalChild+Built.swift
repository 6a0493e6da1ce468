@_exported import PseudoTerminal

extension PseudoTerminalChild {
    /// Starts `executable`, built next to the tests, with `arguments` on a new terminal of
    /// `columns` × `rows`, with `environment` added to this process's.
    package convenience init(executable: String = "terminal-session-helper", arguments: [String] = [], columns: Int = 80, rows: Int = 24,
                            environment: [String: String] = [:]) throws {
        try self.init(path: BuiltExecutable.url(named: executable).path, arguments: arguments, columns: columns, rows: rows,
                      environment: environment)
    }
}
