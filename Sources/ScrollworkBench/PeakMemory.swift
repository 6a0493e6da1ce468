#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures how much resident memory a piece of work adds at its peak.
///
/// On Linux this resets the kernel's high-water mark (`/proc/self/clear_refs`, value 5) and
/// reads `VmHWM` afterwards, so the figure is the true peak of the process during the work,
/// minus what was resident before. Elsewhere it reports `nil`.
enum PeakMemory {
    /// Runs `body` and returns its result with the peak resident memory it added, in bytes.
    static func measure<T>(_ body: () -> T) -> (result: T, peakBytes: Int?) {
        releaseFreedMemory()
        guard reset(), let before = statusField("VmRSS") else { return (body(), nil) }
        let result = body()
        guard let peak = statusField("VmHWM") else { return (result, nil) }
        return (result, max(0, peak - before))
    }

    /// Runs the asynchronous `body` and returns its result with the peak resident memory it
    /// added, in bytes; whatever else the process does meanwhile counts too.
    static func measure<T>(_ body: () async -> T) async -> (result: T, peakBytes: Int?) {
        let (result, added, _) = await measureWithTotal(body)
        return (result, added)
    }

    /// As the asynchronous `measure`, with the process's own peak during `body` too (`VmHWM`).
    static func measureWithTotal<T>(_ body: () async -> T) async -> (result: T, peakBytes: Int?, processPeakBytes: Int?) {
        releaseFreedMemory()
        guard reset(), let before = statusField("VmRSS") else { return (await body(), nil, nil) }
        let result = await body()
        guard let peak = statusField("VmHWM") else { return (result, nil, nil) }
        return (result, max(0, peak - before), peak)
    }

    /// Returns memory the allocator keeps for reuse to the system. Without this, earlier runs
    /// leave the heap holding enough freed pages to serve the measured one, which then adds
    /// nothing to the resident high-water mark and reads as zero. glibc's `malloc_trim` lives
    /// in `<malloc.h>`, which the Glibc module does not import, so it is looked up by name.
    private static func releaseFreedMemory() {
        #if canImport(Glibc)
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        #endif
    }

    private static func reset() -> Bool {
        #if os(Linux)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
        #else
        return false
        #endif
    }

    /// The process's resident memory now (`VmRSS`), in bytes; nil where it cannot be read.
    static var residentBytes: Int? { statusField("VmRSS") }

    /// The resident memory of process `pid`, in bytes; nil where `/proc` does not say.
    static func residentBytes(ofProcess pid: pid_t) -> Int? { statusField("VmRSS", process: "\(pid)") }

    /// A `kB` field of `/proc/PROCESS/status`, in bytes.
    private static func statusField(_ name: String, process: String = "self") -> Int? {
        #if os(Linux)
        guard let file = fopen("/proc/\(process)/status", "r") else { return nil }
        defer { fclose(file) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) > 0 {
            guard let line else { break }
            let text = String(cString: line)
            guard text.hasPrefix(name + ":") else { continue }
            let digits = text.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
        #else
        return nil
        #endif
    }
}
