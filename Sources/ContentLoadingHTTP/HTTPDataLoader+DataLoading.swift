import ContentLoading
import Foundation
import HTTPLoading

// HTTPLoading knows nothing of ContentLoading, and ContentLoading nothing of the network, so
// that neither pulls the other's dependencies (an Apple app plugs URLSession in instead); the
// conformance lives in this glue target.
extension HTTPDataLoader: DataLoading {
    public typealias Key = URL
}
