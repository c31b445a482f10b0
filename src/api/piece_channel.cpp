#include "api/piece_channel.h"

namespace parley {

bool PieceChannel::push(std::string_view piece) {
  std::lock_guard lock(mu_);
  if (abandoned_) return false;
  pieces_.emplace_back(piece);
  cv_.notify_all();
  return true;
}

void PieceChannel::finish(Result<void> outcome) {
  std::lock_guard lock(mu_);
  finished_ = true;
  if (!outcome.ok()) error_ = std::move(outcome).error();
  cv_.notify_all();
}

bool PieceChannel::wait_ready(std::chrono::milliseconds wait) {
  std::unique_lock lock(mu_);
  return cv_.wait_for(lock, wait, [&] { return finished_ || !pieces_.empty(); });
}

std::optional<std::string> PieceChannel::next() {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return finished_ || !pieces_.empty(); });
  if (pieces_.empty()) return std::nullopt;
  std::string text = std::move(pieces_.front());
  pieces_.pop_front();
  for (; !pieces_.empty(); pieces_.pop_front()) text += pieces_.front();
  return text;
}

Result<void> PieceChannel::outcome() {
  std::lock_guard lock(mu_);
  if (error_) return *error_;
  return {};
}

bool PieceChannel::finished() {
  std::lock_guard lock(mu_);
  return finished_;
}

bool PieceChannel::has_piece() {
  std::lock_guard lock(mu_);
  return !pieces_.empty();
}

void PieceChannel::abandon() {
  std::lock_guard lock(mu_);
  abandoned_ = true;
}

}  // namespace parley
