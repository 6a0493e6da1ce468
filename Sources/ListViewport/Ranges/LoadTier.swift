/// How urgently a row's content is wanted, by the range the row is in: what
/// ``ViewportRanges/rowsToLoad`` says of each row.
///
/// The viewport knows no loader: a host maps tiers to its loader's priorities (ViewportLoading
/// maps them to ContentLoading's, tier for tier).
public enum LoadTier: Sendable, CaseIterable {
    /// Rows in the preload range, ahead of the scroll.
    case prefetch
    /// Rows about to be displayed, just outside the screen; during a glide, the rows where it
    /// is predicted to stop.
    case display
    /// Rows on screen; during a glide, the rows it passes on its way.
    case visible
}
