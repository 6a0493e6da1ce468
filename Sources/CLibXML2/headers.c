// CLibXML2 is libxml2's headers only: Feeds opens the library itself at its first parse
// (see Feeds' LibXML2.swift), so nothing here is compiled and nothing is linked. SwiftPM
// builds a C target from at least one source file; this is that file.
#include "CLibXML2.h"
