// Files added to an agent's knowledge (the dashboard's "Upload files", `parley admin source
// upload`): the bytes are read into titled text by extract/ (PDF, DOCX, HTML, Markdown, plain
// text, CSV; the type decided from the content first) and stored as one `file` source through
// add_source (domain/sources.h), so the plan's training characters, training and deletion are
// those of any text. Nothing is stored for a file that cannot be read. Knows no HTTP; stateless
// and thread-safe. Extraction takes CPU time: callers run it off the I/O threads.
#pragma once

#include <string>
#include <string_view>

#include "core/result.h"
#include "domain/sources.h"
#include "extract/limits.h"
#include "knowledge/source_listener.h"
#include "store/services.h"

namespace parley {

struct UploadedFile {
  std::string_view bytes;
  std::string_view content_type;  // as declared (may carry charset=); may be empty
  std::string_view filename;      // as sent; only its last path segment is kept
};

// The name kept for a file: the last segment of `sent` (after '/' or '\'), without control
// characters and surrounding spaces, at most 255 characters; empty when nothing is left.
std::string file_display_name(std::string_view sent);

// The source a file becomes: type `file`, its `filename`, its title (the document's own when it
// has one, else the file name; at most 200 characters) and its text, cut at a block boundary to
// the 1,000,000 characters a source holds. 400 invalid_request naming the file's type when it is
// not one the extractor reads ("Unsupported file type: image/png."), or with the extractor's
// reason ("The PDF is encrypted.", "No text found: the PDF holds only images.", "The file is
// damaged: …", "The archive expands too much.").
Result<NewSource> read_file_source(const UploadedFile& file, const ExtractLimits& limits = {});

// read_file_source, then add_source: 404 for an agent not of the account (checked before the
// file is read), 403 character_limit_exceeded as for any text.
Result<SourceAdded> add_file_source(Services& s, std::string_view account_id,
                                    std::string_view agent_id, const UploadedFile& file,
                                    SourceListener* listener, const ExtractLimits& limits = {});

}  // namespace parley
