// The HTML reader's block writer (extract/html.h): turns the main content's elements into
// headings, paragraphs, list items, table rows and preformatted blocks, dropping what the reader
// drops. Recursion stops 200 elements deep; deeper content is read as flat text.
// Pure function; thread-safe.
#pragma once

#include <gumbo.h>

#include <vector>

#include "extract/document.h"

namespace parley::html {

// Appends the blocks of `root` to `blocks`. `in_section`: `root` is (inside) an article or main,
// where header and footer belong to the content.
void write_blocks(const GumboNode* root, bool in_section, std::vector<TextBlock>& blocks);

}  // namespace parley::html
