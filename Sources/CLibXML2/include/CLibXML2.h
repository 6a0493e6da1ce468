// The parts of the system libxml2 (Debian `libxml2-dev`) that the Feeds module uses: the SAX2
// push parser, its error reports, encoding handlers and the HTML 4 entity table.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose headers clash with the copy Foundation embeds. The
// ICU parts only add fields at the end of xmlCharEncodingHandler, which Swift never touches
// (handlers travel by pointer), so the declarations are left out.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/entities.h>
#include <libxml/encoding.h>
#include <libxml/xmlerror.h>
#include <libxml/HTMLparser.h>
