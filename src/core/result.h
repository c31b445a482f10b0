// Result<T>: a value or an ApiError, returned across layers instead of throwing (C++20 has no
// std::expected). Result<void> carries only success or an error.
#pragma once

#include <cassert>
#include <optional>
#include <utility>
#include <variant>

#include "core/error.h"

namespace parley {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Result(ApiError error) : v_(std::move(error)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const ApiError& error() const& { assert(!ok()); return std::get<1>(v_); }
  ApiError&& error() && { assert(!ok()); return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, ApiError> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(ApiError error) : error_(std::move(error)) {}  // NOLINT

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  const ApiError& error() const& { assert(!ok()); return *error_; }
  ApiError&& error() && { assert(!ok()); return std::move(*error_); }

 private:
  std::optional<ApiError> error_;
};

inline Result<void> ok_result() { return {}; }

}  // namespace parley

// Returns the error of a Result-valued expression from the enclosing function.
#define PARLEY_TRY(expr)                                   \
  do {                                                     \
    auto&& parley_try_result_ = (expr);                    \
    if (!parley_try_result_.ok())                          \
      return std::move(parley_try_result_).error();        \
  } while (0)

#define PARLEY_CONCAT_INNER(a, b) a##b
#define PARLEY_CONCAT(a, b) PARLEY_CONCAT_INNER(a, b)
// Declares `lhs` from the value of a Result-valued expression, or returns its error.
#define PARLEY_ASSIGN_OR_RETURN(lhs, expr) \
  PARLEY_ASSIGN_OR_RETURN_IMPL(PARLEY_CONCAT(parley_result_, __LINE__), lhs, expr)
#define PARLEY_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return std::move(tmp).error();      \
  lhs = std::move(tmp).value()
