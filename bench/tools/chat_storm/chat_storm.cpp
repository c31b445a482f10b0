// chat_storm: a load generator for the chat benchmark. It opens many TCP connections at once,
// sends one chat request on each (`POST /api/v1/agents/{agent}/chat`, JSON or streamed replies),
// reads every response in full (Content-Length or chunked bodies) and prints one JSON object with
// how many requests were answered, the failures by reason and the latency percentiles. An optional
// probe connection measures how a cheap `GET /api/v1/agents/{id}` fares while the storm runs.
//
// Standard library plus header-only Boost.Asio; the command line and the response parser are in
// the headers beside this file. With Boost 1.74 under C++20, <utility> must come before any Asio
// header.
#include <utility>

#include <boost/asio.hpp>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "response_parser.h"
#include "storm_options.h"

namespace storm {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

// ---------------------------------------------------------------------------------------------
// One storm request: its own connection, one request, the whole response, then close.

struct RequestResult {
    bool streamed = false;
    int status = 0;              // 0 when no status line arrived
    bool body_complete = false;
    double latency_ms = 0;       // from the start of connect to the full body (or the failure)
    double finished_at_s = 0;    // since the storm started
    std::string outcome;         // empty when answered, otherwise the failure reason
    std::string body;            // the first 200 bytes (everything with --dump-bodies)
};

class Storm;

class StormRequest {
public:
    StormRequest(Storm& storm, asio::io_context& io, bool streamed, std::string request,
                 std::size_t body_keep_limit)
        : storm_(storm), strand_(asio::make_strand(io)), socket_(strand_),
          request_(std::move(request)), parser_(body_keep_limit) {
        result_.streamed = streamed;
    }

    // Both run on this request's strand (they post themselves there).
    void start();
    void on_deadline();

    const RequestResult& result() const { return result_; }

private:
    void begin();
    void on_connect(const error_code& ec);
    void on_write(const error_code& ec);
    void read_more();
    void on_read(const error_code& ec, std::size_t size);
    void finish_with_reply();
    void finish(std::string outcome);

    Storm& storm_;
    asio::strand<asio::io_context::executor_type> strand_;
    tcp::socket socket_;
    std::string request_;
    ResponseParser parser_;
    std::array<char, 4096> buffer_;
    Clock::time_point connect_started_;
    bool started_ = false;
    bool done_ = false;
    std::string write_error_;
    RequestResult result_;
};

// ---------------------------------------------------------------------------------------------
// The probe: one kept-alive connection sending GET /api/v1/agents/{id}, one request at a time,
// every probe_interval_ms, until stopped.

class Probe {
public:
    Probe(asio::io_context& io, tcp::endpoint endpoint, const Options& options)
        : strand_(asio::make_strand(io)), socket_(strand_), timer_(strand_), endpoint_(endpoint),
          interval_(std::chrono::milliseconds(options.probe_interval_ms)), parser_(0) {
        request_ = "GET /api/v1/agents/" + url_path_segment(options.probe_agent) + " HTTP/1.1\r\n" +
                   "Host: " + options.host + ":" + options.port + "\r\n" +
                   "Authorization: Bearer " + options.key + "\r\n" +
                   "Accept: application/json\r\n\r\n";
    }

    void start() {
        asio::post(strand_, [this] { send_next(); });
    }

    void stop() {
        asio::post(strand_, [this] {
            stopped_ = true;
            timer_.cancel();
            error_code ignored;
            socket_.close(ignored);
        });
    }

    // Read after the io_context has stopped.
    const std::vector<double>& latencies_ms() const { return latencies_ms_; }
    const std::map<std::string, std::size_t>& failures() const { return failures_; }

private:
    void send_next() {
        if (stopped_) return;
        sent_at_ = Clock::now();
        next_send_ = sent_at_ + interval_;
        parser_.reset();
        if (connected_) {
            write_request();
            return;
        }
        socket_.async_connect(endpoint_, [this](const error_code& ec) {
            if (stopped_) return;
            if (ec) return record("connect: " + ec.message());
            connected_ = true;
            write_request();
        });
    }

    void write_request() {
        asio::async_write(socket_, asio::buffer(request_), [this](const error_code& ec, std::size_t) {
            if (stopped_) return;
            if (ec) return record("write: " + ec.message());
            read_more();
        });
    }

    void read_more() {
        socket_.async_read_some(asio::buffer(buffer_), [this](const error_code& ec, std::size_t size) {
            if (stopped_) return;
            if (ec) {
                if (ec == asio::error::eof && parser_.finish_at_eof() == ResponseParser::State::complete) {
                    return record(status_outcome(parser_.status()), true);
                }
                if (parser_.bytes_seen() > 0) return record("cut");
                if (ec == asio::error::eof) return record("closed before reply");
                return record("read: " + ec.message());
            }
            switch (parser_.feed(buffer_.data(), size)) {
                case ResponseParser::State::complete: return record(status_outcome(parser_.status()));
                case ResponseParser::State::error: return record("bad response");
                case ResponseParser::State::need_more: return read_more();
            }
        });
    }

    // One probe is over (failure empty when it got a 200): note it, drop the connection unless
    // it can be reused, and wait for the next tick.
    void record(const std::string& failure, bool closed_by_peer = false) {
        latencies_ms_.push_back(ms_between(sent_at_, Clock::now()));
        bool ok = failure.empty();
        if (!ok) ++failures_[failure];
        if (!ok || closed_by_peer || !parser_.keep_alive()) {
            error_code ignored;
            socket_.close(ignored);
            connected_ = false;
        }
        timer_.expires_at(std::max(Clock::now(), next_send_));
        timer_.async_wait([this](const error_code& ec) {
            if (!ec) send_next();
        });
    }

    asio::strand<asio::io_context::executor_type> strand_;
    tcp::socket socket_;
    asio::steady_timer timer_;
    tcp::endpoint endpoint_;
    Clock::duration interval_;
    std::string request_;
    ResponseParser parser_;
    std::array<char, 4096> buffer_;
    bool connected_ = false;
    bool stopped_ = false;
    Clock::time_point sent_at_;
    Clock::time_point next_send_;
    std::vector<double> latencies_ms_;
    std::map<std::string, std::size_t> failures_;
};

// ---------------------------------------------------------------------------------------------
// The storm: creates the requests, launches them, enforces the overall timeout and stops the
// probe when the last request is over.

class Storm {
public:
    // The probe runs on its own event loop (`probe_io`, its own thread), so that its latency is the
    // server's and not the time this program takes to get to it amid the storm.
    Storm(asio::io_context& io, asio::io_context& probe_io, tcp::endpoint endpoint, const Options& options)
        : endpoint_(endpoint), options_(options), control_(asio::make_strand(io)),
          deadline_timer_(control_), remaining_(options.concurrency) {
        std::size_t keep = options.dump_bodies_dir.empty() ? 200 : SIZE_MAX;
        requests_.reserve(options.concurrency);
        for (std::size_t i = 0; i < options.concurrency; ++i) {
            bool streamed = options.stream_every == 1 ||
                            (options.stream_every > 1 && i % options.stream_every == 1);
            requests_.push_back(std::make_unique<StormRequest>(
                *this, io, streamed, build_request(i, streamed), keep));
        }
        if (!options.probe_agent.empty()) probe_ = std::make_unique<Probe>(probe_io, endpoint, options);
    }

    // Queues the start; io_context::run does the work.
    void start() {
        started_at_ = Clock::now();
        deadline_ = started_at_ + std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options_.timeout_s));
        if (probe_) probe_->start();
        asio::post(control_, [this] { launch_from(0); });
        deadline_timer_.expires_at(deadline_);
        deadline_timer_.async_wait([this](const error_code& ec) {
            if (ec) return;  // cancelled: everything finished in time
            for (auto& request : requests_) request->on_deadline();
        });
    }

    // Called once by each request, from its strand.
    void request_finished() {
        if (remaining_.fetch_sub(1) == 1) {
            asio::post(control_, [this] {
                deadline_timer_.cancel();
                if (probe_) probe_->stop();
            });
        }
    }

    Clock::time_point started_at() const { return started_at_; }
    const tcp::endpoint& endpoint() const { return endpoint_; }
    const std::vector<std::unique_ptr<StormRequest>>& requests() const { return requests_; }
    const Probe* probe() const { return probe_.get(); }

private:
    // Starts requests in small batches so that replies to the first ones are read while the
    // rest are still being launched.
    void launch_from(std::size_t first) {
        constexpr std::size_t kBatch = 64;
        std::size_t last = std::min(first + kBatch, requests_.size());
        for (std::size_t i = first; i < last; ++i) requests_[i]->start();
        if (last < requests_.size()) asio::post(control_, [this, last] { launch_from(last); });
    }

    std::string build_request(std::size_t index, bool streamed) const {
        const std::string& agent = options_.agents[index % options_.agents.size()];
        std::string body = "{\"message\": \"" + json_escape(options_.message) + "\", \"stream\": " +
                           (streamed ? "true" : "false") + ", \"sessionId\": \"storm-" +
                           std::to_string(index) + "\"}";
        return "POST /api/v1/agents/" + url_path_segment(agent) + "/chat HTTP/1.1\r\n" +
               "Host: " + options_.host + ":" + options_.port + "\r\n" +
               "Authorization: Bearer " + options_.key + "\r\n" +
               "Content-Type: application/json\r\n" +
               "Content-Length: " + std::to_string(body.size()) + "\r\n" +
               "Connection: close\r\n\r\n" + body;
    }

    tcp::endpoint endpoint_;
    const Options& options_;
    asio::strand<asio::io_context::executor_type> control_;
    asio::steady_timer deadline_timer_;
    Clock::time_point started_at_;
    Clock::time_point deadline_;
    std::vector<std::unique_ptr<StormRequest>> requests_;
    std::unique_ptr<Probe> probe_;
    std::atomic<std::size_t> remaining_;
};

// The Storm owns every request until the io_context has stopped, so handlers capture `this`.

void StormRequest::start() {
    asio::post(strand_, [this] { begin(); });
}

void StormRequest::begin() {
    if (done_) return;
    started_ = true;
    connect_started_ = Clock::now();
    socket_.async_connect(storm_.endpoint(), [this](const error_code& ec) { on_connect(ec); });
}

void StormRequest::on_connect(const error_code& ec) {
    if (done_) return;
    if (ec) return finish("connect: " + ec.message());
    // Read while writing, so that an early reply (and close) from the server is not lost.
    asio::async_write(socket_, asio::buffer(request_),
                      [this](const error_code& write_ec, std::size_t) { on_write(write_ec); });
    read_more();
}

void StormRequest::on_write(const error_code& ec) {
    if (done_ || !ec) return;
    // The read in flight decides; it reports this error if no reply came.
    write_error_ = "write: " + ec.message();
}

void StormRequest::read_more() {
    socket_.async_read_some(asio::buffer(buffer_),
                            [this](const error_code& ec, std::size_t size) { on_read(ec, size); });
}

void StormRequest::on_read(const error_code& ec, std::size_t size) {
    if (done_) return;
    if (!ec) {
        switch (parser_.feed(buffer_.data(), size)) {
            case ResponseParser::State::complete: return finish_with_reply();
            case ResponseParser::State::error: return finish("bad response");
            case ResponseParser::State::need_more: return read_more();
        }
    }
    if (ec == asio::error::eof && parser_.finish_at_eof() == ResponseParser::State::complete) {
        return finish_with_reply();
    }
    if (parser_.headers_done()) {
        return finish(parser_.status() == 200 ? "cut" : status_outcome(parser_.status()));
    }
    if (parser_.bytes_seen() > 0) return finish("cut");
    if (!write_error_.empty()) return finish(write_error_);
    if (ec == asio::error::eof) return finish("closed before reply");
    finish("read: " + ec.message());
}

void StormRequest::finish_with_reply() {
    result_.body_complete = true;
    finish(status_outcome(parser_.status()));
}

void StormRequest::on_deadline() {
    asio::post(strand_, [this] {
        if (done_) return;
        finish("timeout");
    });
}

void StormRequest::finish(std::string outcome) {
    done_ = true;
    Clock::time_point now = Clock::now();
    if (!started_) connect_started_ = storm_.started_at();
    result_.status = parser_.headers_done() ? parser_.status() : 0;
    result_.latency_ms = ms_between(connect_started_, now);
    result_.finished_at_s = ms_between(storm_.started_at(), now) / 1000.0;
    result_.outcome = std::move(outcome);
    result_.body = parser_.body();
    error_code ignored;
    socket_.close(ignored);
    storm_.request_finished();
}

// ---------------------------------------------------------------------------------------------
// Report

// Nearest-rank percentile of sorted values.
double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(sorted.size())));
    rank = std::clamp<std::size_t>(rank, 1, sorted.size());
    return sorted[rank - 1];
}

std::string fixed(double value, int decimals) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

// {"reason":count,...}
std::string json_counts(const std::map<std::string, std::size_t>& counts) {
    std::string out = "{";
    for (const auto& [reason, count] : counts) {
        if (out.size() > 1) out += ",";
        out += "\"" + json_escape(reason) + "\":" + std::to_string(count);
    }
    return out + "}";
}

std::string report(const Storm& storm, const Options& options) {
    std::size_t answered = 0, answered_stream = 0, answered_json = 0;
    std::map<std::string, std::size_t> failures;
    std::vector<double> latencies;
    double last_answer_s = 0, last_finish_s = 0;
    // The sample error body: the first one of a non-200 status, else of any failure.
    std::optional<std::string> sample_error, sample_cut;
    for (const auto& request : storm.requests()) {
        const RequestResult& r = request->result();
        latencies.push_back(r.latency_ms);
        last_finish_s = std::max(last_finish_s, r.finished_at_s);
        if (r.outcome.empty()) {
            ++answered;
            ++(r.streamed ? answered_stream : answered_json);
            last_answer_s = std::max(last_answer_s, r.finished_at_s);
        } else {
            ++failures[r.outcome];
            if (r.body.empty()) continue;
            if (!sample_error && r.status != 200) sample_error = r.body.substr(0, 200);
            if (!sample_cut) sample_cut = r.body.substr(0, 200);
        }
    }
    if (!sample_error) sample_error = sample_cut;
    std::sort(latencies.begin(), latencies.end());

    std::string out = "{\"concurrency\":" + std::to_string(options.concurrency) +
                      ",\"answered\":" + std::to_string(answered) +
                      ",\"answered_stream\":" + std::to_string(answered_stream) +
                      ",\"answered_json\":" + std::to_string(answered_json) +
                      ",\"failures\":" + json_counts(failures) +
                      ",\"p50_ms\":" + fixed(percentile(latencies, 50), 1) +
           ",\"p99_ms\":" + fixed(percentile(latencies, 99), 1) +
           ",\"max_ms\":" + fixed(latencies.empty() ? 0 : latencies.back(), 1) +
           ",\"replies_per_s\":" + fixed(last_answer_s > 0 ? answered / last_answer_s : 0, 1) +
           ",\"wall_s\":" + fixed(last_finish_s, 3) + ",\"probe\":";
    if (const Probe* probe = storm.probe()) {
        std::vector<double> probes = probe->latencies_ms();
        std::sort(probes.begin(), probes.end());
        std::size_t probe_errors = 0;
        for (const auto& [reason, count] : probe->failures()) probe_errors += count;
        out += "{\"count\":" + std::to_string(probes.size()) +
               ",\"p50_ms\":" + fixed(percentile(probes, 50), 2) +
               ",\"p99_ms\":" + fixed(percentile(probes, 99), 2) +
               ",\"max_ms\":" + fixed(probes.empty() ? 0 : probes.back(), 2) +
               ",\"errors\":" + std::to_string(probe_errors) +
               ",\"failures\":" + json_counts(probe->failures()) + "}";
    } else {
        out += "null";
    }
    out += ",\"sample_error\":\"" + json_escape(sample_error.value_or("")) + "\"}";
    return out;
}

void dump_bodies(const Storm& storm, const std::string& dir) {
    for (std::size_t i = 0; i < storm.requests().size(); ++i) {
        std::ofstream file(dir + "/" + std::to_string(i) + ".body", std::ios::binary);
        const std::string& body = storm.requests()[i]->result().body;
        file.write(body.data(), static_cast<std::streamsize>(body.size()));
        if (!file) std::cerr << "chat_storm: could not write bodies to " << dir << "\n";
    }
}

void raise_descriptor_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
    if (limit.rlim_cur == limit.rlim_max) return;
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) {
        std::cerr << "chat_storm: could not raise the open-file limit\n";
    }
}

}  // namespace
}  // namespace storm

int main(int argc, char** argv) {
    using namespace storm;
    Options options = parse_options(argc, argv);
    raise_descriptor_limit();

    asio::io_context io;
    tcp::endpoint endpoint;
    {
        error_code ec;
        tcp::resolver resolver(io);
        auto endpoints = resolver.resolve(options.host, options.port, ec);
        if (ec || endpoints.empty()) {
            usage_error("cannot resolve " + options.host + ":" + options.port +
                        (ec ? ": " + ec.message() : std::string()));
        }
        endpoint = endpoints.begin()->endpoint();
    }

    asio::io_context probe_io;
    Storm storm(io, probe_io, endpoint, options);
    storm.start();
    std::thread probe_thread([&probe_io] { probe_io.run(); });
    std::vector<std::thread> workers;
    for (std::size_t i = 1; i < options.threads; ++i) workers.emplace_back([&io] { io.run(); });
    io.run();
    for (auto& worker : workers) worker.join();
    probe_thread.join();

    std::cout << report(storm, options) << std::endl;
    if (!options.dump_bodies_dir.empty()) dump_bodies(storm, options.dump_bodies_dir);
    return 0;
}
