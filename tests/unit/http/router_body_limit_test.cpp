#include <gtest/gtest.h>

#include "http/router.h"

namespace parley {
namespace {

Response ok(Request&) { return Response::json(200, "{}"); }

TEST(RouterBodyLimit, ARouteTakesItsOwnLimitAndEveryOtherTheServers) {
  Router router;
  router.add("GET", "/a/{id}", {ok});
  router.add("POST", "/a/{id}/files", {ok, Execution::kPool, 25u << 20});
  router.add("POST", "/a/{id}/import", {ok, Execution::kPool, 64u << 20});
  EXPECT_EQ(router.largest_body_limit(1u << 20), 64u << 20);
  EXPECT_EQ(router.body_limit("POST", "/a/x/files", 1u << 20), 25u << 20);
  EXPECT_EQ(router.body_limit("POST", "/a/x/import", 1u << 20), 64u << 20);
  EXPECT_EQ(router.body_limit("GET", "/a/x", 1u << 20), 1u << 20);        // says nothing
  EXPECT_EQ(router.body_limit("PUT", "/a/x/files", 1u << 20), 1u << 20);  // another method
  EXPECT_EQ(router.body_limit("POST", "/nowhere", 1u << 20), 1u << 20);   // no route
}

TEST(RouterBodyLimit, TheLargestIsAtLeastAndTheSmallestAtMostTheServers) {
  Router router;
  router.add("GET", "/any", {ok});
  EXPECT_EQ(router.smallest_body_limit(1u << 20), 1u << 20);
  router.add("POST", "/small", {ok, Execution::kInline, 1000});
  EXPECT_EQ(router.largest_body_limit(1u << 20), 1u << 20);
  EXPECT_EQ(router.smallest_body_limit(1u << 20), 1000u);
  EXPECT_EQ(router.body_limit("POST", "/small", 1u << 20), 1000u);
}

}  // namespace
}  // namespace parley
