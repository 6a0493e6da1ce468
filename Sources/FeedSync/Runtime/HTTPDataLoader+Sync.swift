import HTTPLoading

extension HTTPDataLoader.Configuration {
    /// The loader a sync runs over: HTTPLoading's deadlines and request rule, replies up to
    /// 64 MB (a page of a thousand items with their articles is a few megabytes; a reply past
    /// this is refused rather than held), and one attempt per request, since the next sync is
    /// the retry and resumes where this one stopped.
    public static var sync: Self {
        var configuration = Self()
        configuration.maxBodySize = 64 << 20
        configuration.maxAttempts = 1
        return configuration
    }
}
