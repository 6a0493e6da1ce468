/// Small helpers for writing JSON by hand where key order matters to the reader.
package enum JSONText {
    /// `text` as a JSON string literal, with quotes, backslashes and control characters escaped.
    ///
    /// DEL and the C1 controls (U+007F–U+009F) are escaped too, though JSON allows them raw:
    /// the value is the same, and the line stays inert when it is printed to a terminal.
    package static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
