// The backends the store contract runs on (store_contract.cpp store_backends()): SQLite, and
// PostgreSQL when PARLEY_TEST_POSTGRES_URL names a cluster.
#include "store_contract.h"

namespace parley {

INSTANTIATE_TEST_SUITE_P(Backends, StoreContract, ::testing::ValuesIn(store_backends()),
                         [](const ::testing::TestParamInfo<StoreBackend>& info) {
                           return info.param.name;
                         });

}  // namespace parley
