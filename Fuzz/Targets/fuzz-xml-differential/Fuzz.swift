import CFuzzDriver
import FeedsFuzzing

/// libFuzzer's callback: one input to `FeedsFuzzTargets.xmlDifferential`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    FeedsFuzzTargets.xmlDifferential.run(data, count)
}

/// The program's entry, which SwiftPM links `main` to: libFuzzer's driver, with its options.
@_cdecl("fuzz_xml_differential_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, fuzzOneInput)
}
