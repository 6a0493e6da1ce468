#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sRGB transfer function: 8-bit encoded values to linear light and back.
///
/// Averaging and distances need linear light: the mean of black and white pixels is a grey
/// that sends half the light, sRGB 188, not the encoded midpoint 128.
enum SRGB {
    /// The linear-light value (0 to 1) of each 8-bit encoded value.
    static let linearTable: [Float] = (0..<256).map { code in
        let value = Double(code) / 255
        return Float(value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4))
    }

    /// Linear light of an 8-bit encoded value.
    @inline(__always)
    static func linear(_ code: UInt8) -> Float {
        linearTable[Int(code)]
    }

    /// Encoded values of linear light sampled at 4096 steps: finer than any 8-bit step where
    /// the curve is steepest, so a lookup rounds like the formula.
    private static let encodeTable: [UInt8] = (0...4095).map { step in
        let value = Double(step) / 4095
        let encoded = value <= 0.003_130_8 ? value * 12.92 : 1.055 * pow(value, 1 / 2.4) - 0.055
        return UInt8((encoded * 255).rounded())
    }

    /// The 8-bit encoded value of linear light `value`, clamped to 0...1.
    @inline(__always)
    static func encode(_ value: Float) -> UInt8 {
        let clamped = min(max(value, 0), 1)
        return encodeTable[Int((clamped * 4095).rounded())]
    }
}
