import ArgumentParser
import Foundation

/// A feed address from the command line: a URL, or a path to a file.
func feedURL(_ text: String) throws -> URL {
    if let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme), url.host != nil || scheme == "file" {
        return url
    }
    guard !text.contains("://") else { throw ValidationError("\(text) is not an http, https or file URL") }
    return URL(fileURLWithPath: text).standardizedFileURL
}
