/// The size an image is reduced to: fitted inside a square of `maxPixelSize`, aspect kept,
/// never enlarged.
struct TargetSize: Hashable, Sendable {
    var width: Int
    var height: Int

    /// The size of a `width` × `height` image fitted within `maxPixelSize` on its larger side.
    ///
    /// The larger side becomes exactly `maxPixelSize`; the other is rounded to the nearest
    /// pixel and is at least 1. `nil`, or a limit the image already meets, keeps the size.
    init(fitting width: Int, _ height: Int, within maxPixelSize: Int?) {
        guard let maxPixelSize, max(width, height) > maxPixelSize else {
            self.width = width
            self.height = height
            return
        }
        let scale = Double(maxPixelSize) / Double(max(width, height))
        self.width = width >= height ? maxPixelSize : max(1, Int((Double(width) * scale).rounded()))
        self.height = height > width ? maxPixelSize : max(1, Int((Double(height) * scale).rounded()))
    }
}
