import CThumbnails

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
        /// Which library inflates PNG image data. The default, `.fastest`, is right for every
        /// use but comparing the two.
        public var inflate: Inflate

        /// A configuration; every parameter has the default documented on its property.
        ///
        /// - Precondition: `maxPixelCount` and `rowsPerBatch` are positive.
        public init(
            maxPixelCount: Int = 100_000_000, returnsPartialImages: Bool = false, rowsPerBatch: Int = 16,
            inflate: Inflate = .fastest
        ) {
            precondition(maxPixelCount > 0, "maxPixelCount must be positive")
            precondition(rowsPerBatch > 0, "rowsPerBatch must be positive")
            self.maxPixelCount = maxPixelCount
            self.returnsPartialImages = returnsPartialImages
            self.rowsPerBatch = rowsPerBatch
            self.inflate = inflate
        }
    }

    /// The library that inflates a PNG's image data (most of a large PNG's decoding time).
    ///
    /// ISA-L is never linked: its runtime library is opened when first needed, where the
    /// machine has it (Debian `libisal2`), and checked against zlib before it is used. Both
    /// give the same pixels.
    public enum Inflate: Hashable, Sendable, CaseIterable {
        /// Intel's ISA-L, two to three times as fast as zlib, where the machine has
        /// `libisal.so.2` and the environment does not say `SCROLLWORK_INFLATE=zlib`; else zlib.
        case fastest
        /// zlib, which every machine has.
        case zlib

        /// What this choice uses on this machine, for reports: for example
        /// "ISA-L (libisal.so.2)", or "zlib 1.2.13 (ISA-L not found)".
        public var library: String { String(cString: ct_inflate_library(choice)) }

        /// Whether this choice inflates with ISA-L on this machine.
        public var usesISAL: Bool { ct_inflate_uses_isal(choice) != 0 }

        var choice: ct_inflate_choice {
            switch self {
            case .fastest: CT_INFLATE_FASTEST
            case .zlib: CT_INFLATE_ZLIB
            }
        }
    }
}
