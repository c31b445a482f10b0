// The backends the store contract runs on. A new backend adds its line here.
#include "store_contract.h"

namespace parley {

INSTANTIATE_TEST_SUITE_P(Backends, StoreContract,
                         ::testing::Values(StoreBackend{"Sqlite", open_sqlite_store}),
                         [](const ::testing::TestParamInfo<StoreBackend>& info) {
                           return info.param.name;
                         });

}  // namespace parley
