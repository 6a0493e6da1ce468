/// A request for one piece of a row's content: what to compute, and the data it is computed from.
///
/// Equal requests share one unit of work; requests with equal ``dataKey`` share one load of
/// their data (two thumbnail sizes of one image download it once).
public protocol ContentRequest: Hashable, Sendable {
    /// Identifies the data the content is computed from, such as the image's URL.
    associatedtype DataKey: Hashable & Sendable

    /// The data this request is computed from.
    var dataKey: DataKey { get }
}

/// Loads the bytes behind a data key: over HTTP, from a file, from a database.
///
/// Implementations honour task cancellation: when the task that calls ``loadData(for:)`` is
/// cancelled, the transfer stops and the call throws.
public protocol DataLoading<Key>: Sendable {
    associatedtype Key: Hashable & Sendable

    /// The bytes for `key`.
    func loadData(for key: Key) async throws -> [UInt8]
}

/// Turns loaded bytes into a row's content: decoding and downsampling an image, rendering an
/// avatar, laying out text.
///
/// Processing is blocking CPU work: ``ContentPipeline`` runs it on threads of its own, at most
/// ``LoadingCore/Configuration/maxConcurrentProcessing`` at once, never on the cooperative pool.
public protocol ContentProcessing<Request, Value>: Sendable {
    associatedtype Request: ContentRequest
    associatedtype Value: Sendable

    /// The content for `request`, computed from `data`. Runs on a thread of its own, which it
    /// may block.
    ///
    /// - Parameter isCancelled: check it between steps and throw once it returns `true`: the
    ///   work is no longer wanted.
    func process(_ data: [UInt8], for request: Request, isCancelled: () -> Bool) throws -> Value

    /// How much work processing `data` for `request` is, known before it starts, in units of
    /// the processor's choosing (bytes, decoded pixels): a simulation that drives a
    /// ``LoadingCore`` in virtual time turns it into the time the job takes. The default is
    /// the size of the data.
    ///
    /// - Complexity: O(1) or close to it: it is asked before the real work.
    func cost(of data: [UInt8], for request: Request) -> Int
}

extension ContentProcessing {
    /// The size of the data.
    public func cost(of data: [UInt8], for request: Request) -> Int { data.count }
}

/// Why a request delivered no value.
public enum ContentError: Error, Sendable, CustomStringConvertible {
    /// Loading the data failed.
    case loadingFailed(any Error)
    /// Processing the data failed.
    case processingFailed(any Error)

    public var description: String {
        switch self {
        case .loadingFailed(let error): "loading failed: \(error)"
        case .processingFailed(let error): "processing failed: \(error)"
        }
    }
}
