// The unit tests' entry: as the server binary does, PDFs are read in child processes that run
// this program again as their reader (extract/isolated_reader.h), so extract_document's tests
// cover the path a node takes.
#include <gtest/gtest.h>

#include "extract/isolated_reader.h"

int main(int argc, char** argv) {
  if (parley::is_reader_call(argc, argv)) parley::run_reader(argc, argv);
  parley::read_pdfs_in_child_processes();
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
