import FuzzSupport
import ScrollworkReader

/// The fuzz target of the reader's settings file.
public enum ReaderFuzzTargets {
    public static let all: [FuzzTarget] = [settings]

    /// The settings file's text (TOML, through TOMLKit's toml++) read as settings: settings,
    /// or an error whose message, which the terminal shows, carries nothing a terminal acts on.
    public static let settings = FuzzTarget(name: "fuzz-settings") { bytes throws(FuzzFinding) in
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        do throws(SettingsError) {
            _ = try ReaderSettings(toml: text, file: "config.toml")
        } catch {
            if let hazard = FuzzInvariants.terminalHazard(in: error.description, singleLine: false) {
                throw FuzzFinding("the settings error holds \(hazard)")
            }
        }
    }
}
