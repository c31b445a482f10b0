#include "domain/member_passwords.h"

#include <argon2.h>
#include <sys/mman.h>

#include <array>
#include <charconv>
#include <vector>

#include "core/crypto.h"
#include "core/json.h"

namespace parley {

namespace {
constexpr uint32_t kTimeCost = 2;
constexpr uint32_t kMemoryKiB = 19 * 1024;
constexpr uint32_t kLanes = 1;
constexpr size_t kSaltBytes = 16;
constexpr size_t kHashBytes = 32;

// Argon2's working memory (kMemoryKiB per hash) comes straight from mmap and goes back with
// munmap. From malloc, glibc's adaptive mmap threshold soon places blocks of this size in the
// calling thread's arena, where they stay resident after free (malloc_trim does not shrink the
// top of a thread's arena): 50 logins spread over the pool's threads left about 300 MB.
int map_memory(uint8_t** memory, size_t bytes) {
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return ARGON2_MEMORY_ALLOCATION_ERROR;
  *memory = static_cast<uint8_t*>(p);
  return ARGON2_OK;
}
void unmap_memory(uint8_t* memory, size_t bytes) { munmap(memory, bytes); }

struct Params {
  uint32_t memory_kib = kMemoryKiB;
  uint32_t time_cost = kTimeCost;
  uint32_t lanes = kLanes;
};

argon2_context context(const Params& p, std::string_view password, std::string_view salt, uint8_t* out,
                       size_t out_len) {
  argon2_context ctx{};
  ctx.out = out;
  ctx.outlen = static_cast<uint32_t>(out_len);
  ctx.pwd = reinterpret_cast<uint8_t*>(const_cast<char*>(password.data()));  // read only (no clear flag)
  ctx.pwdlen = static_cast<uint32_t>(password.size());
  ctx.salt = reinterpret_cast<uint8_t*>(const_cast<char*>(salt.data()));
  ctx.saltlen = static_cast<uint32_t>(salt.size());
  ctx.t_cost = p.time_cost;
  ctx.m_cost = p.memory_kib;
  ctx.lanes = p.lanes;
  ctx.threads = p.lanes;
  ctx.version = ARGON2_VERSION_13;
  ctx.allocate_cbk = map_memory;
  ctx.free_cbk = unmap_memory;
  ctx.flags = ARGON2_DEFAULT_FLAGS;
  return ctx;
}

// The standard encoding's base64: no padding.
std::string b64(std::string_view bytes) {
  std::string s = base64_encode(bytes);
  while (!s.empty() && s.back() == '=') s.pop_back();
  return s;
}
std::optional<std::string> unb64(std::string_view text) {
  std::string padded(text);
  while (padded.size() % 4 != 0) padded += '=';
  return base64_decode(padded);
}

Result<std::string> encode(std::string_view password, const uint8_t* salt) {
  std::string_view salt_view(reinterpret_cast<const char*>(salt), kSaltBytes);
  std::array<uint8_t, kHashBytes> hash{};
  argon2_context ctx = context(Params{}, password, salt_view, hash.data(), hash.size());
  int rc = argon2id_ctx(&ctx);
  if (rc != ARGON2_OK) return ApiError::internal(std::string("password hashing failed: ") + argon2_error_message(rc));
  // The same string libargon2's argon2id_hash_encoded writes.
  return "$argon2id$v=19$m=" + std::to_string(kMemoryKiB) + ",t=" + std::to_string(kTimeCost) +
         ",p=" + std::to_string(kLanes) + "$" + b64(salt_view) + "$" +
         b64({reinterpret_cast<const char*>(hash.data()), hash.size()});
}

// Reads "$argon2id$v=19$m=M,t=T,p=P$SALT$HASH"; nothing for any other shape or for a cost out
// of bounds.
struct Encoded {
  Params params;
  std::string salt;
  std::string hash;
};
std::optional<Encoded> parse(std::string_view s) {
  auto take = [&](std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    return true;
  };
  auto number = [&](uint32_t& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    if (ec != std::errc() || end == s.data()) return false;
    s.remove_prefix(static_cast<size_t>(end - s.data()));
    return true;
  };
  Encoded e;
  if (!take("$argon2id$v=19$m=") || !number(e.params.memory_kib) || !take(",t=") ||
      !number(e.params.time_cost) || !take(",p=") || !number(e.params.lanes) || !take("$")) {
    return std::nullopt;
  }
  // Stored hashes are ours; still, never let one ask for more than 1 GiB or 16 lanes.
  if (e.params.memory_kib > (1u << 20) || e.params.lanes == 0 || e.params.lanes > 16) return std::nullopt;
  size_t dollar = s.find('$');
  if (dollar == std::string_view::npos) return std::nullopt;
  auto salt = unb64(s.substr(0, dollar));
  auto hash = unb64(s.substr(dollar + 1));
  if (!salt || !hash || hash->empty()) return std::nullopt;
  e.salt = std::move(*salt);
  e.hash = std::move(*hash);
  return e;
}
}  // namespace

Result<void> check_password_rules(std::string_view password) {
  size_t n = utf8_length(password);
  if (n < kMinPasswordLength || n > kMaxPasswordLength) {
    return ApiError::invalid("'password' must be 8 to 200 characters.");
  }
  return {};
}

Result<std::string> hash_password(Random& random, std::string_view password) {
  std::array<uint8_t, kSaltBytes> salt{};
  random.fill(salt.data(), salt.size());
  return encode(password, salt.data());
}

bool verify_password(std::string_view encoded, std::string_view password) {
  auto e = parse(encoded);  // every hash libargon2 or this file wrote has this shape
  if (!e) return false;
  std::vector<uint8_t> out(e->hash.size());
  argon2_context ctx = context(e->params, password, e->salt, out.data(), out.size());
  return argon2id_verify_ctx(&ctx, e->hash.data()) == ARGON2_OK;
}

void verify_dummy_password(std::string_view password) {
  // A fixed salt is fine: this hash protects nothing, it only costs the same as a real check.
  static const std::string dummy = [] {
    std::array<uint8_t, kSaltBytes> salt{};
    salt.fill(0x5a);
    auto r = encode("parley-dummy-password", salt.data());
    return r.ok() ? *r : std::string();
  }();
  if (!dummy.empty()) (void)verify_password(dummy, password);
}

}  // namespace parley
