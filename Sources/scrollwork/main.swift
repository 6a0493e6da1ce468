import ScrollworkApp
// Compiled against the static runtime on Linux (see Package.swift), these imports bring the
// static libraries Foundation and its XML parser need into the link.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

await ScrollworkCommand.runAsMain()
