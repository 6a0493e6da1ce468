import CLibXML2
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system libxml2, opened the first time a document is parsed rather than when the
/// program starts.
///
/// libxml2 brings ICU and liblzma with it: loading the three took about a millisecond of every
/// launch and held a megabyte and a half of memory, in a reader that may show what it stored
/// without parsing anything. So Feeds calls libxml2 only through the functions here, looked up
/// with `dlsym`, and never by name: the executable, linked with `--as-needed`, then does not
/// load libxml2 at launch. The types still come from libxml2's own headers (`CLibXML2`), so
/// the structures Feeds reads match the installed library.
///
/// Thread-safe: loaded once; the functions are libxml2's own.
struct LibXML2: Sendable {
    typealias Context = xmlParserCtxtPtr

    let createPushParserCtxt: @convention(c) (
        UnsafeMutablePointer<xmlSAXHandler>?, UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?
    ) -> Context?
    let parseChunk: ChunkFunction
    let freeParserCtxt: @convention(c) (Context?) -> Void
    let freeDoc: @convention(c) (xmlDocPtr?) -> Void
    let ctxtUseOptions: @convention(c) (Context?, Int32) -> Int32
    let stopParser: @convention(c) (Context?) -> Void
    let initParser: @convention(c) () -> Void
    let switchToEncoding: @convention(c) (Context?, xmlCharEncodingHandlerPtr?) -> Int32
    let findCharEncodingHandler: @convention(c) (UnsafePointer<CChar>?) -> xmlCharEncodingHandlerPtr?
    let charEncCloseFunc: @convention(c) (xmlCharEncodingHandlerPtr?) -> Int32
    let dictOwns: @convention(c) (xmlDictPtr?, UnsafePointer<xmlChar>?) -> Int32
    let setExternalEntityLoader: @convention(c) (xmlExternalEntityLoader?) -> Void
    let htmlCreatePushParserCtxt: @convention(c) (
        UnsafeMutablePointer<htmlSAXHandler>?, UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, xmlCharEncoding
    ) -> Context?
    let htmlParseChunk: ChunkFunction
    let htmlFreeParserCtxt: @convention(c) (Context?) -> Void
    let htmlCtxtUseOptions: @convention(c) (Context?, Int32) -> Int32
    let htmlEntityLookup: @convention(c) (UnsafePointer<xmlChar>?) -> UnsafePointer<htmlEntityDesc>?

    /// The library, loaded and initialized at the first use; the reason when it cannot be.
    static let shared: Result<LibXML2, LoadError> = load()

    /// A push parser's chunk function: ``parseChunk`` or ``htmlParseChunk``.
    typealias ChunkFunction = @convention(c) (Context?, UnsafePointer<CChar>?, Int32, Int32) -> Int32

    /// Hands `bytes` to the push parser `context` through `chunk`, in pieces of at most
    /// `pieceSize` bytes (given one piece of about 10 MB or more, libxml2 stops with a "huge
    /// input" error), the last one with `terminate` if asked; stops early once `goOn` says no.
    func feed(_ context: Context, _ bytes: UnsafeBufferPointer<UInt8>, through chunk: ChunkFunction, pieceSize: Int,
              terminate: Bool, while goOn: () -> Bool = { true }) {
        bytes.withMemoryRebound(to: CChar.self) { chars in
            var start = 0
            repeat {
                let end = min(start + pieceSize, chars.count)
                let isLast = end == chars.count
                _ = chunk(context, chars.baseAddress.map { $0 + start }, Int32(end - start), terminate && isLast ? 1 : 0)
                start = end
            } while start < chars.count && goOn()
        }
    }

    /// Why libxml2 could not be used.
    struct LoadError: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    #if canImport(Darwin)
    static let fileName = "/usr/lib/libxml2.2.dylib"
    #else
    /// The library's soname: what Debian's `libxml2` package installs (`libxml2-dev` adds the
    /// headers and the unversioned link).
    static let fileName = "libxml2.so.2"
    #endif

    private static func load() -> Result<LibXML2, LoadError> {
        guard let handle = dlopen(fileName, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "not found"
            return .failure(LoadError(description: "libxml2, which parses XML feeds, could not be loaded (\(reason)); install it (Debian: apt install libxml2)"))
        }
        var missing: [String] = []
        /// The function `name`, as the type of the property it is for.
        func symbol<T>(_ name: String) -> T {
            guard let address = dlsym(handle, name) else {
                missing.append(name)
                // Never called: a library with a function missing is refused below.
                return unsafeBitCast(UnsafeMutableRawPointer(bitPattern: 1)!, to: T.self)
            }
            return unsafeBitCast(address, to: T.self)
        }
        let library = LibXML2(
            createPushParserCtxt: symbol("xmlCreatePushParserCtxt"),
            parseChunk: symbol("xmlParseChunk"),
            freeParserCtxt: symbol("xmlFreeParserCtxt"),
            freeDoc: symbol("xmlFreeDoc"),
            ctxtUseOptions: symbol("xmlCtxtUseOptions"),
            stopParser: symbol("xmlStopParser"),
            initParser: symbol("xmlInitParser"),
            switchToEncoding: symbol("xmlSwitchToEncoding"),
            findCharEncodingHandler: symbol("xmlFindCharEncodingHandler"),
            charEncCloseFunc: symbol("xmlCharEncCloseFunc"),
            dictOwns: symbol("xmlDictOwns"),
            setExternalEntityLoader: symbol("xmlSetExternalEntityLoader"),
            htmlCreatePushParserCtxt: symbol("htmlCreatePushParserCtxt"),
            htmlParseChunk: symbol("htmlParseChunk"),
            htmlFreeParserCtxt: symbol("htmlFreeParserCtxt"),
            htmlCtxtUseOptions: symbol("htmlCtxtUseOptions"),
            htmlEntityLookup: symbol("htmlEntityLookup")
        )
        guard missing.isEmpty else {
            return .failure(LoadError(description: "the libxml2 at \(fileName) lacks \(missing.joined(separator: ", "))"))
        }
        library.initParser()
        return .success(library)
    }
}
