// Reads a PDF in a child process, so that a file made to exhaust poppler (forms drawn within
// forms, text drawn over text, a content stream shared by every page: minutes of CPU and
// gigabytes from a few kilobytes; poppler has no budget or abort hook) costs a bounded share of
// one core and memory, and a crash in the library ends the child, not the node.
//
// The child is this program again (`/proc/self/exe`: the running file, even after an upgrade
// replaced it on disk), started with kReaderCommand and no environment: it limits itself (a timer
// of its CPU time; RLIMIT_AS above what it maps once its input is read, except under
// AddressSanitizer, which reserves terabytes; both within the hard limits it inherits), is not
// dumpable, is the out-of-memory killer's first choice and dies with its parent, reads the file
// from standard input, and writes the document (title and paragraphs, all a PDF gives) or the
// reader's error on standard output. The parent kills it at a wall-clock deadline, a backstop:
// its input is in memory, so it only waits when the machine is busy.
//
// A process chooses isolation once, at start (`main` of the server binary and of the unit tests
// call read_pdfs_in_child_processes); without it, PDFs are read in the calling thread (the fuzz
// targets and the benchmarks of the reader itself).
// Thread-safe after the setup.
#pragma once

#include <string_view>

#include "core/result.h"
#include "extract/document.h"
#include "extract/limits.h"

namespace parley {

// The hidden command of the program that reads one document (argv[1]); followed by its limits.
inline constexpr std::string_view kReaderCommand = "__read-document";

// From now on, PDFs are read by `executable` started with kReaderCommand; empty: in this thread.
// Resets SIGCHLD to its default (core/child_process.h reaps its children itself).
void read_pdfs_in_child_processes(std::string executable = "/proc/self/exe");

// The PDF's document, read in a child when the process is set up for it, else by extract_pdf.
// Besides extract_pdf's errors, all 400 invalid_request: "The PDF takes too long to read.", "The
// PDF needs too much memory to read.", "The file is damaged: the PDF reader failed on it."; and
// 503 unavailable when no child can start or it ends in a way no file explains (logged), or once
// the node stops (stop_child_processes).
Result<ExtractedDocument> read_pdf(std::string_view bytes, const ExtractLimits& limits);

// The child's side: true when `argv` calls the reader.
bool is_reader_call(int argc, char** argv);
// Reads standard input as the arguments say, writes the answer to standard output and ends the
// process (`_exit`: no destructors or exit handlers, whose work a reader does not need, and
// no leak report of a sanitizer build about poppler's caches to change its exit code).
[[noreturn]] void run_reader(int argc, char** argv);

}  // namespace parley
