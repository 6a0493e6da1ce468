/// Times a piece of work repeatedly and reports the median, which resists the outliers that
/// shared machines produce far better than the mean.
enum Stopwatch {
    /// Runs `body` `runs` times (after one untimed warm-up unless `warmUp` is false) and
    /// returns the median wall time in milliseconds. The value `body` returns is kept alive so
    /// the optimizer cannot drop the work.
    static func medianMilliseconds<T>(runs: Int, warmUp: Bool = true, _ body: () -> T) -> Double {
        precondition(runs > 0, "runs must be positive")
        if warmUp { keep(body()) }
        let clock = ContinuousClock()
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            var result: T?
            let elapsed = clock.measure { result = body() }
            keep(result)
            samples.append(elapsed.milliseconds)
        }
        return median(samples)
    }

    /// Times two pieces of work in alternation, `runs` times each after one untimed warm-up
    /// of each, and returns both medians in milliseconds. Alternating keeps a change in the
    /// machine's speed during the run (another process, frequency scaling) from landing on one
    /// side only, which matters when the figure that counts is their ratio.
    static func interleavedMedianMilliseconds<A, B>(runs: Int, _ first: () -> A, _ second: () -> B) -> (Double, Double) {
        precondition(runs > 0, "runs must be positive")
        keep(first())
        keep(second())
        let clock = ContinuousClock()
        var firstSamples: [Double] = []
        var secondSamples: [Double] = []
        for _ in 0..<runs {
            var a: A?
            firstSamples.append(clock.measure { a = first() }.milliseconds)
            keep(a)
            var b: B?
            secondSamples.append(clock.measure { b = second() }.milliseconds)
            keep(b)
        }
        return (median(firstSamples), median(secondSamples))
    }

    /// The median of `samples`; the mean of the two middle values for an even count.
    static func median(_ samples: [Double]) -> Double {
        precondition(!samples.isEmpty, "median of no samples")
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    @inline(never)
    private static func keep<T>(_ value: T) {
        withExtendedLifetime(value) {}
    }
}

extension Duration {
    /// This duration in (fractional) milliseconds.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
