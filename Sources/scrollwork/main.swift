import ScrollworkApp
// Compiled against the static runtime on Linux (see Package.swift), this import brings the
// static libraries Foundation needs into the link. (Not FoundationXML: it would load libxml2
// at every launch, which Feeds opens only when it first parses; see Feeds' LibXML2.)
import Foundation

await ScrollworkCommand.runAsMain()
