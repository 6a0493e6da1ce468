import ContentLoading
import ListViewport

extension LoadPriority {
    /// The priority that loads a row of `tier`: the tier of the same name. The viewport's
    /// rows never ask for ``landing`` (the rows where a glide stops come as
    /// ``LoadTier/display``) nor ``background`` (what a host binds for rows that may flash by).
    /// - Complexity: O(1).
    public init(_ tier: LoadTier) {
        switch tier {
        case .prefetch: self = .prefetch
        case .display: self = .display
        case .visible: self = .visible
        }
    }
}
