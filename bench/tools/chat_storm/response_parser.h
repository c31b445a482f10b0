// chat_storm's incremental HTTP/1.1 response parser: status line and headers, then a body
// delimited by Content-Length, by chunked transfer coding, or by the end of the connection.
// Header-only; included by chat_storm.cpp alone.
#pragma once

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "storm_options.h"

namespace storm {

// ---------------------------------------------------------------------------------------------
// Incremental HTTP/1.1 response parser: status line and headers, then a body delimited by
// Content-Length, by chunked transfer coding, or by the end of the connection.

class ResponseParser {
public:
    enum class State { need_more, complete, error };

    explicit ResponseParser(std::size_t body_keep_limit) : body_keep_limit_(body_keep_limit) {}

    // Prepares for the next response on a kept-alive connection.
    void reset() {
        phase_ = Phase::head;
        head_.clear();
        line_.clear();
        status_ = 0;
        keep_alive_ = true;
        bytes_seen_ = 0;
        remaining_ = 0;
        body_.clear();
        body_size_ = 0;
    }

    State feed(const char* data, std::size_t size) {
        bytes_seen_ += size;
        std::string_view input(data, size);
        while (true) {
            switch (phase_) {
                case Phase::head:
                    if (!consume_head(input)) return state();
                    break;
                case Phase::length_body: {
                    std::size_t take = static_cast<std::size_t>(
                        std::min<std::uint64_t>(remaining_, input.size()));
                    keep_body(input.substr(0, take));
                    input.remove_prefix(take);
                    remaining_ -= take;
                    if (remaining_ == 0) phase_ = Phase::done;
                    if (input.empty() || phase_ == Phase::done) return state();
                    break;
                }
                case Phase::close_body:
                    keep_body(input);
                    return state();
                case Phase::chunk_size: {
                    if (!take_line(input)) return state();
                    std::string_view digits = line_;
                    digits = digits.substr(0, digits.find(';'));  // drop chunk extensions
                    digits = trim(digits);
                    std::uint64_t chunk = 0;
                    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), chunk, 16);
                    if (digits.empty() || digits.size() > 15 || ec != std::errc() ||
                        end != digits.data() + digits.size()) {
                        phase_ = Phase::failed;
                        return state();
                    }
                    line_.clear();
                    remaining_ = chunk;
                    phase_ = chunk == 0 ? Phase::trailers : Phase::chunk_data;
                    break;
                }
                case Phase::chunk_data: {
                    std::size_t take = static_cast<std::size_t>(
                        std::min<std::uint64_t>(remaining_, input.size()));
                    keep_body(input.substr(0, take));
                    input.remove_prefix(take);
                    remaining_ -= take;
                    if (remaining_ > 0) return state();
                    phase_ = Phase::chunk_end;
                    break;
                }
                case Phase::chunk_end:
                    // The CRLF that closes a chunk's data.
                    while (!input.empty() && line_.size() < 2) {
                        line_ += input.front();
                        input.remove_prefix(1);
                    }
                    if (line_.size() < 2) return state();
                    if (line_ != "\r\n") {
                        phase_ = Phase::failed;
                        return state();
                    }
                    line_.clear();
                    phase_ = Phase::chunk_size;
                    break;
                case Phase::trailers:
                    // Trailer fields up to the empty line that ends the chunked body.
                    if (!take_line(input)) return state();
                    if (line_.empty()) phase_ = Phase::done;
                    line_.clear();
                    if (phase_ == Phase::done) return state();
                    break;
                case Phase::done:
                case Phase::failed:
                    return state();
            }
        }
    }

    // The peer closed the connection: a body delimited by the close is now complete.
    State finish_at_eof() {
        if (phase_ == Phase::close_body) phase_ = Phase::done;
        return state();
    }

    State state() const {
        if (phase_ == Phase::done) return State::complete;
        if (phase_ == Phase::failed) return State::error;
        return State::need_more;
    }
    bool headers_done() const { return phase_ != Phase::head && phase_ != Phase::failed; }
    int status() const { return status_; }
    bool keep_alive() const { return keep_alive_; }
    std::size_t bytes_seen() const { return bytes_seen_; }
    const std::string& body() const { return body_; }  // the first body_keep_limit bytes
    std::uint64_t body_size() const { return body_size_; }

private:
    enum class Phase { head, length_body, close_body, chunk_size, chunk_data, chunk_end, trailers, done, failed };
    static constexpr std::size_t kMaxHead = 64 * 1024;
    static constexpr std::size_t kMaxLine = 4 * 1024;

    // Appends input up to the end of the header block; on the blank line, parses it and chooses
    // how the body is delimited. Returns false when more input is needed or parsing failed.
    bool consume_head(std::string_view& input) {
        std::size_t search_from = head_.size() < 3 ? 0 : head_.size() - 3;
        std::size_t old_size = head_.size();
        head_.append(input);
        std::size_t end = head_.find("\r\n\r\n", search_from);
        if (end == std::string::npos) {
            input.remove_prefix(input.size());
            if (head_.size() > kMaxHead) phase_ = Phase::failed;
            return false;
        }
        std::size_t used = end + 4 - old_size;
        input.remove_prefix(used);
        head_.resize(end + 2);
        if (!parse_head()) {
            phase_ = Phase::failed;
            return false;
        }
        head_.clear();
        // An interim 1xx response is followed by the real one.
        if (status_ >= 100 && status_ < 200 && status_ != 101) {
            phase_ = Phase::head;
            return true;
        }
        return phase_ != Phase::done;
    }

    bool parse_head() {
        std::string_view head = head_;
        std::size_t line_end = head.find("\r\n");
        std::string_view status_line = head.substr(0, line_end);
        head.remove_prefix(line_end + 2);
        if (status_line.size() < 12 || status_line.substr(0, 5) != "HTTP/") return false;
        bool http10 = status_line.substr(0, 8) == "HTTP/1.0";
        std::size_t space = status_line.find(' ');
        if (space == std::string_view::npos || space + 4 > status_line.size()) return false;
        std::string_view code = status_line.substr(space + 1, 3);
        auto [end, ec] = std::from_chars(code.data(), code.data() + code.size(), status_);
        if (ec != std::errc() || end != code.data() + code.size() || status_ < 100) return false;

        std::optional<std::uint64_t> content_length;
        bool chunked = false;
        keep_alive_ = !http10;
        while (!head.empty()) {
            line_end = head.find("\r\n");
            std::string_view line = head.substr(0, line_end);
            head.remove_prefix(line_end + 2);
            std::size_t colon = line.find(':');
            if (colon == std::string_view::npos) return false;
            std::string_view name = trim(line.substr(0, colon));
            std::string_view value = trim(line.substr(colon + 1));
            if (iequals(name, "Content-Length")) {
                std::uint64_t length = 0;
                auto [len_end, len_ec] = std::from_chars(value.data(), value.data() + value.size(), length);
                if (len_ec != std::errc() || len_end != value.data() + value.size()) return false;
                content_length = length;
            } else if (iequals(name, "Transfer-Encoding")) {
                chunked = icontains(value, "chunked");
            } else if (iequals(name, "Connection")) {
                if (icontains(value, "close")) keep_alive_ = false;
                else if (icontains(value, "keep-alive")) keep_alive_ = true;
            }
        }

        if ((status_ >= 100 && status_ < 200) || status_ == 204 || status_ == 304) {
            phase_ = Phase::done;
        } else if (chunked) {
            phase_ = Phase::chunk_size;
        } else if (content_length) {
            remaining_ = *content_length;
            phase_ = remaining_ == 0 ? Phase::done : Phase::length_body;
        } else {
            phase_ = Phase::close_body;
            keep_alive_ = false;
        }
        return true;
    }

    // Collects one CRLF-terminated line into line_ (without the CRLF). Returns true when whole.
    bool take_line(std::string_view& input) {
        while (!input.empty()) {
            char c = input.front();
            input.remove_prefix(1);
            line_ += c;
            if (line_.size() >= 2 && line_[line_.size() - 2] == '\r' && c == '\n') {
                line_.resize(line_.size() - 2);
                return true;
            }
            if (line_.size() > kMaxLine) {
                phase_ = Phase::failed;
                return false;
            }
        }
        return false;
    }

    void keep_body(std::string_view data) {
        body_size_ += data.size();
        if (body_.size() < body_keep_limit_) {
            body_.append(data.substr(0, std::min(data.size(), body_keep_limit_ - body_.size())));
        }
    }

    std::size_t body_keep_limit_;
    Phase phase_ = Phase::head;
    std::string head_;
    std::string line_;
    int status_ = 0;
    bool keep_alive_ = true;
    std::size_t bytes_seen_ = 0;
    std::uint64_t remaining_ = 0;
    std::string body_;
    std::uint64_t body_size_ = 0;
};


}  // namespace storm
