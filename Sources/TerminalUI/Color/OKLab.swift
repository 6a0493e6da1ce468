#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A colour in OKLab (Björn Ottosson, 2020): a perceptual space, where the distance between
/// two colours follows how different they look far better than distance in RGB does.
public struct OKLab: Hashable, Sendable {
    /// Lightness, 0 (black) to 1 (white).
    public var l: Float
    /// Green (negative) to red (positive).
    public var a: Float
    /// Blue (negative) to yellow (positive).
    public var b: Float

    /// Creates a colour from its coordinates.
    public init(l: Float, a: Float, b: Float) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// The OKLab coordinates of an sRGB colour.
    public init(_ color: RGB) {
        self.init(linearRed: SRGB.linear(color.red), green: SRGB.linear(color.green), blue: SRGB.linear(color.blue))
    }

    /// The OKLab coordinates of linear-light RGB (0 to 1).
    public init(linearRed red: Float, green: Float, blue: Float) {
        let l = (0.412_221_470_8 * red + 0.536_332_536_3 * green + 0.051_445_992_9 * blue).cubeRoot
        let m = (0.211_903_498_2 * red + 0.680_699_545_1 * green + 0.107_396_956_6 * blue).cubeRoot
        let s = (0.088_302_461_9 * red + 0.281_718_837_6 * green + 0.629_978_700_5 * blue).cubeRoot
        self.l = 0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s
        self.a = 1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s
        self.b = 0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s
    }

    /// The squared Euclidean distance to `other`: enough to compare distances.
    public func squaredDistance(to other: OKLab) -> Float {
        let dl = l - other.l, da = a - other.a, db = b - other.b
        return dl * dl + da * da + db * db
    }
}

extension Float {
    fileprivate var cubeRoot: Float { cbrtf(self) }
}
