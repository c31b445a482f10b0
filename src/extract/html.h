// Reads an HTML page into an ExtractedDocument with gumbo (the WHATWG parsing algorithm, so any
// tag soup parses as a browser would). Only the main content is kept: script, style, noscript,
// template, svg, iframe, form, nav, aside (and header and footer outside an article or main) are
// dropped, as are elements marked hidden, aria-hidden="true" or style="display:none"; when the
// page has a <main>, a role="main" element or a single <article>, only that is read. Headings,
// list items, table rows ("Adult ticket: 45 EUR"; cells joined with " | " without headers) and
// <pre> become blocks; the links, canonical address, <base href> and robots directives come from
// the whole page. docs/decisions/extraction.md has the reasons.
// Pure function; thread-safe (gumbo keeps no global state).
#pragma once

#include <string_view>

#include "extract/document.h"
#include "extract/html_parse.h"

namespace parley {

// `utf8`: the page already decoded (extract/charset.h). Never fails: any bytes are a page. A page
// whose parse takes longer than `budget` (a hostile nesting, extract/html_parse.h) is read as its
// text without markup, a paragraph per block element.
ExtractedDocument extract_html(std::string_view utf8, const html::ParseBudget& budget = {});

}  // namespace parley
