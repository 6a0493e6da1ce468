extension ThumbnailDecoder {
    /// Limits and policies for decoding.
    public struct Configuration: Hashable, Sendable {
        /// Images whose header declares more pixels than this fail with
        /// `ThumbnailError.tooManyPixels` before their pixels are allocated.
        ///
        /// The default, 100 megapixels, admits any camera photo of today and stops the
        /// decompression bombs that declare, say, 50 000 × 50 000 pixels in a few kilobytes.
        public var maxPixelCount: Int
        /// When `true`, an image whose data end early or break partway is returned with the
        /// rows decoded before the damage and transparent pixels after it, instead of failing.
        /// Damage in the header still fails.
        public var returnsPartialImages: Bool
        /// How many rows are decoded between two cancellation checks.
        ///
        /// The default, 16, makes a check every few hundred microseconds on a large image,
        /// while the per-batch overhead stays negligible.
        public var rowsPerBatch: Int

        /// A configuration; every parameter has the default documented on its property.
        ///
        /// - Precondition: `maxPixelCount` and `rowsPerBatch` are positive.
        public init(maxPixelCount: Int = 100_000_000, returnsPartialImages: Bool = false, rowsPerBatch: Int = 16) {
            precondition(maxPixelCount > 0, "maxPixelCount must be positive")
            precondition(rowsPerBatch > 0, "rowsPerBatch must be positive")
            self.maxPixelCount = maxPixelCount
            self.returnsPartialImages = returnsPartialImages
            self.rowsPerBatch = rowsPerBatch
        }
    }
}
