// Boost's assertion handler, used when BOOST_ENABLE_ASSERT_HANDLER is defined (the sanitizer
// build; a release build compiles Boost's assertions out with NDEBUG). A failed assertion aborts
// as assert() would, except one that is known to be wrong.
#ifdef BOOST_ENABLE_ASSERT_HANDLER

#include <boost/assert.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace boost {

void assertion_failed(char const* expr, char const* function, char const* file, long line) {
  // Beast 1.74's chunked-body parser asserts `n >= 5` when it resumes on fewer bytes (a final
  // "0\r\n" then "\r" and "\n" in separate reads), although the code after it correctly asks for
  // more; Beast has since corrected the assertion to allow it.
  if (std::strcmp(expr, "n >= 5") == 0 && std::strstr(file, "beast/http/impl/basic_parser.ipp")) return;
  std::fprintf(stderr, "%s:%ld: %s: Assertion `%s' failed.\n", file, line, function, expr);
  std::abort();
}

void assertion_failed_msg(char const* expr, char const* msg, char const* function, char const* file,
                          long line) {
  std::fprintf(stderr, "%s:%ld: %s: Assertion `%s' failed: %s\n", file, line, function, expr, msg);
  std::abort();
}

}  // namespace boost

#endif
