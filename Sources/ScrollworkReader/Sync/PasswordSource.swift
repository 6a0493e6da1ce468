import FeedSync
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a password comes from when a login needs one: the account's password command, else
/// the terminal, asked without echo. Never kept, never printed.
package enum PasswordSource {
    /// The password for `account`: `command`'s first line of output, else (when `prompting`)
    /// what the user types at the terminal.
    package static func password(command: String?, prompting: Bool, for account: SyncAccount) -> Result<SyncSecret, SyncPasswordError> {
        if let command { return run(command) }
        guard prompting else {
            return .failure(SyncPasswordError(description: "the session ended and the account has no password command; run `scrollwork sync` in a terminal to log in again"))
        }
        return prompt("Password for \(account.username) at \(account.serverURL.absoluteString): ")
    }

    /// Runs `command` with `/bin/sh -c`; its first line of output is the password. Its output
    /// is read once it has exited, from a pipe it cannot hold open past that (an agent it starts
    /// may inherit the pipe; nothing waits for the pipe's end).
    package static func run(_ command: String) -> Result<SyncSecret, SyncPasswordError> {
        var ends: [Int32] = [0, 0]
        guard ends.withUnsafeMutableBufferPointer({ pipe($0.baseAddress!) }) == 0 else {
            return .failure(SyncPasswordError(description: "the password command could not be run: no pipe"))
        }
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let argv: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (word: String) in strdup(word) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            return .failure(SyncPasswordError(description: "the password command could not be run: \(String(cString: strerror(spawned)))"))
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        // Read while it runs (a long output would fill the pipe), to its exit.
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count > 0, output.count < 1 << 16 {
                output += buffer[..<count]
                if output.contains(UInt8(ascii: "\n")) { break }
                continue
            }
            if count < 0, errno == EINTR { continue }
            break
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else {
            return .failure(SyncPasswordError(description: "the password command exited with status \(status >> 8)"))
        }
        let line = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        let password = String(decoding: line, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\r"))
        guard !password.isEmpty else { return .failure(SyncPasswordError(description: "the password command printed nothing")) }
        return .success(SyncSecret(password))
    }

    /// Asks for a password on the terminal (`/dev/tty`), its echo off while it is typed.
    package static func prompt(_ text: String) -> Result<SyncSecret, SyncPasswordError> {
        let tty = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard tty >= 0 else {
            return .failure(SyncPasswordError(description: "no terminal to ask the password on; give the account a password command (--password-command)"))
        }
        defer { close(tty) }
        var saved = termios()
        let hasTermios = tcgetattr(tty, &saved) == 0
        if hasTermios {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            quiet.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(tty, TCSAFLUSH, &quiet)
        }
        defer { if hasTermios { tcsetattr(tty, TCSAFLUSH, &saved) } }
        let prompt = Array(text.utf8)
        _ = prompt.withUnsafeBytes { write(tty, $0.baseAddress, $0.count) }
        var typed: [UInt8] = []
        var byte: UInt8 = 0
        while read(tty, &byte, 1) == 1, byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "\r"), typed.count < 4096 {
            typed.append(byte)
        }
        if !hasTermios { _ = write(tty, "\n", 1) }
        guard !typed.isEmpty else { return .failure(SyncPasswordError(description: "no password was typed")) }
        return .success(SyncSecret(String(decoding: typed, as: UTF8.self)))
    }
}
