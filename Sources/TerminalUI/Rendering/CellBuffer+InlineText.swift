extension CellBuffer {
    /// The buffer as lines of text for a terminal's ordinary output (not a full-screen frame):
    /// each row's cells with SGR only where the style changes, reset at the end of the row and
    /// followed by a line feed. What `scrollwork view` prints.
    /// - Complexity: O(cells).
    public func inlineText(colorMode: ColorMode) -> [UInt8] {
        var out = EscapeSequenceWriter(reservingCapacity: cells.count * 8)
        for row in 0..<rows {
            var pen = CellStyle.plain
            for column in 0..<columns {
                let cell = self[row, column]
                guard let grapheme = cell.grapheme else { continue }
                var style = colorMode.resolve(cell.style)
                // A kitty placeholder's colour names its image: it goes as it is.
                if cell.isKittyPlaceholder { style.foreground = cell.style.foreground }
                if style != pen { out.selectGraphicRendition(from: pen, to: style) }
                pen = style
                out.append(grapheme)
            }
            if pen != .plain { out.selectGraphicRendition(from: nil, to: .plain) }
            out.append([0x0A])
        }
        return out.bytes
    }
}
