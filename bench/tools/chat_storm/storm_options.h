// chat_storm's command line and the small text helpers it shares (JSON escaping, URL path
// segments, case-insensitive comparison). Header-only; included by chat_storm.cpp alone.
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

namespace storm {

using Clock = std::chrono::steady_clock;

// ---------------------------------------------------------------------------------------------
// Command line

struct Options {
    std::string host;
    std::string port;
    std::string key;
    std::vector<std::string> agents;
    std::size_t concurrency = 0;
    std::size_t stream_every = 2;
    double timeout_s = 90;
    std::string probe_agent;
    std::size_t probe_interval_ms = 20;
    std::string message = "What are your opening hours?";
    std::size_t threads = 1;
    std::string dump_bodies_dir;  // debugging aid: write every decoded body to DIR/<i>.body
};

inline const char* const kUsage =
    "usage: chat_storm --host HOST --port PORT --key API_KEY --agents AGT1,AGT2,... --concurrency N\n"
    "                  [--stream-every 2] [--timeout-s 90] [--probe-agent AGT] [--probe-interval-ms 20]\n"
    "                  [--message TEXT] [--threads 1] [--dump-bodies DIR]\n";

[[noreturn]] inline void usage_error(const std::string& problem) {
    std::cerr << "chat_storm: " << problem << "\n" << kUsage;
    std::exit(2);
}

inline std::size_t parse_count(const std::string& name, const std::string& text) {
    std::size_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || text.empty()) {
        usage_error(name + " wants a non-negative integer, got '" + text + "'");
    }
    return value;
}

inline double parse_seconds(const std::string& name, const std::string& text) {
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value) || value <= 0) {
        usage_error(name + " wants a positive number, got '" + text + "'");
    }
    return value;
}

inline std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t comma = text.find(',', start);
        if (comma == std::string::npos) comma = text.size();
        if (comma > start) parts.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return parts;
}

inline bool has_control_chars(const std::string& text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

inline Options parse_options(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            std::cout << kUsage;
            std::exit(0);
        }
        std::string value;
        if (auto eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
            value = arg.substr(eq + 1);
            arg.resize(eq);
        } else {
            if (i + 1 >= argc) usage_error(arg + " needs a value");
            value = argv[++i];
        }
        if (arg == "--host") options.host = value;
        else if (arg == "--port") options.port = value;
        else if (arg == "--key") options.key = value;
        else if (arg == "--agents") options.agents = split_commas(value);
        else if (arg == "--concurrency") options.concurrency = parse_count(arg, value);
        else if (arg == "--stream-every") options.stream_every = parse_count(arg, value);
        else if (arg == "--timeout-s") options.timeout_s = parse_seconds(arg, value);
        else if (arg == "--probe-agent") options.probe_agent = value;
        else if (arg == "--probe-interval-ms") options.probe_interval_ms = parse_count(arg, value);
        else if (arg == "--message") options.message = value;
        else if (arg == "--threads") options.threads = parse_count(arg, value);
        else if (arg == "--dump-bodies") options.dump_bodies_dir = value;
        else usage_error("unknown option " + arg);
    }
    if (options.host.empty()) usage_error("--host is required");
    if (options.port.empty()) usage_error("--port is required");
    parse_count("--port", options.port);
    if (options.key.empty()) usage_error("--key is required");
    if (has_control_chars(options.key) || options.key.find(' ') != std::string::npos) {
        usage_error("--key must not hold spaces or control characters");
    }
    if (options.agents.empty()) usage_error("--agents is required");
    if (options.concurrency == 0) usage_error("--concurrency must be at least 1");
    if (options.threads == 0) usage_error("--threads must be at least 1");
    return options;
}


// ---------------------------------------------------------------------------------------------
// Small text helpers

// Escapes text for a JSON string. Valid UTF-8 passes through; a byte that does not start or
// continue a valid sequence (for example a sequence cut in half) becomes U+FFFD.
inline std::string json_escape(std::string_view text) {
    std::string out;
    out.reserve(text.size() + 8);
    std::size_t i = 0;
    while (i < text.size()) {
        auto byte = static_cast<unsigned char>(text[i]);
        if (byte < 0x80) {
            switch (byte) {
                case '"': out += "\\\""; break;
                case '\\': out += "\\\\"; break;
                case '\n': out += "\\n"; break;
                case '\r': out += "\\r"; break;
                case '\t': out += "\\t"; break;
                default:
                    if (byte < 0x20 || byte == 0x7f) {
                        char escaped[8];
                        std::snprintf(escaped, sizeof escaped, "\\u%04x", byte);
                        out += escaped;
                    } else {
                        out += static_cast<char>(byte);
                    }
            }
            ++i;
            continue;
        }
        // Length of the sequence and the allowed range of its second byte (excludes overlong
        // forms, surrogates and code points above U+10FFFF).
        std::size_t length = 0;
        unsigned char low = 0x80, high = 0xbf;
        if (byte >= 0xc2 && byte <= 0xdf) length = 2;
        else if (byte == 0xe0) { length = 3; low = 0xa0; }
        else if (byte >= 0xe1 && byte <= 0xec) length = 3;
        else if (byte == 0xed) { length = 3; high = 0x9f; }
        else if (byte >= 0xee && byte <= 0xef) length = 3;
        else if (byte == 0xf0) { length = 4; low = 0x90; }
        else if (byte >= 0xf1 && byte <= 0xf3) length = 4;
        else if (byte == 0xf4) { length = 4; high = 0x8f; }
        bool valid = length != 0 && i + length <= text.size();
        for (std::size_t k = 1; valid && k < length; ++k) {
            auto next = static_cast<unsigned char>(text[i + k]);
            valid = k == 1 ? (next >= low && next <= high) : (next >= 0x80 && next <= 0xbf);
        }
        if (valid) {
            out.append(text.substr(i, length));
            i += length;
        } else {
            out += "\\ufffd";
            ++i;
        }
    }
    return out;
}

// Percent-encodes everything but unreserved characters, for an id placed in a URL path.
inline std::string url_path_segment(std::string_view text) {
    static const char* const hex = "0123456789ABCDEF";
    std::string out;
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~') {
            out += c;
        } else {
            out += '%';
            out += hex[byte >> 4];
            out += hex[byte & 0x0f];
        }
    }
    return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

inline bool icontains(std::string_view haystack, std::string_view needle) {
    if (needle.size() > haystack.size()) return false;
    for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
        if (iequals(haystack.substr(i, needle.size()), needle)) return true;
    }
    return false;
}

inline std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
    return text;
}

// The outcome of a complete reply: empty for 200, otherwise "status NNN".
inline std::string status_outcome(int status) {
    return status == 200 ? std::string() : "status " + std::to_string(status);
}

inline double ms_between(Clock::time_point from, Clock::time_point to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
}


}  // namespace storm
