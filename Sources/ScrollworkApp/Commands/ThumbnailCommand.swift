import ArgumentParser
import ScrollworkReader
import Thumbnails

/// `scrollwork thumbnail FILE [--size N] --out OUT.pam`: decodes a PNG or JPEG, reduces it,
/// and writes it as a PAM file.
struct ThumbnailCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Decode a PNG or JPEG, downsample it, and write it as a PAM file.",
        discussion: """
            The format is read from the file's bytes, not its name. EXIF orientation is applied.
            On failure the reason goes to standard error and the exit status is 1.
            """
    )

    /// Why making a thumbnail failed, phrased for the terminal.
    enum Failure: Error, CustomStringConvertible {
        case image(ImageFile.Failure)
        case write(FileBytes.Failure)

        var description: String {
            switch self {
            case .image(let failure): "\(failure)"
            case .write(let failure): "cannot write \(failure)"
            }
        }
    }

    @Argument(help: "The PNG or JPEG file to decode.")
    var file: String

    @Option(name: .long, help: "The most pixels on the larger side; 0 keeps the full size.")
    var size = 0

    @Option(name: .long, help: "Where to write the PAM image.")
    var out: String

    func validate() throws {
        guard size >= 0 else { throw ValidationError("--size must be 0 (full size) or a positive number of pixels") }
    }

    func run() throws {
        do {
            try makeThumbnail(decoder: ThumbnailDecoder())
        } catch {
            printError("scrollwork thumbnail: \(error)")
            throw ExitCode(1)
        }
    }

    /// Reads `file`, decodes it with `decoder` to fit `size`, and writes the PAM to `out`.
    @discardableResult
    func makeThumbnail(decoder: some ImageDecoding) throws(Failure) -> PixelBuffer {
        let image: PixelBuffer
        do { image = try ImageFile.decode(file, maxPixelSize: size == 0 ? nil : size, decoder: decoder) } catch { throw .image(error) }
        do { try FileBytes.write(PAMEncoder.encode(image), to: out) } catch { throw .write(error) }
        return image
    }
}
