#include "knowledge/index_form.h"

#include <algorithm>
#include <cstring>

#include "core/crypto.h"
#include "knowledge/index_bytes.h"

namespace parley {

namespace {
constexpr std::string_view kMagic = "PKIF";
constexpr size_t kHeaderBytes = 4 + 4 + 8 + 32;

void save_analysis(ByteWriter& out, const KnowledgeSettings& settings) {
  out.str(settings.language);
  out.varint(settings.synonyms.size());
  for (const auto& group : settings.synonyms) {
    out.varint(group.size());
    for (const auto& member : group) out.str(member);
  }
}

bool same_analysis(ByteReader& in, const KnowledgeSettings& settings) {
  if (in.str() != settings.language) return false;
  if (in.count() != settings.synonyms.size()) return false;
  for (const auto& group : settings.synonyms) {
    if (in.count() != group.size()) return false;
    for (const auto& member : group)
      if (in.str() != member) return false;
  }
  return in.ok();
}

void save_optional(ByteWriter& out, const std::optional<std::string>& s) {
  out.u8(s ? 1 : 0);
  if (s) out.str(*s);
}

std::optional<std::string> load_optional(ByteReader& in) {
  if (in.u8() == 0) return std::nullopt;
  return std::string(in.str());
}

bool all_below(const std::vector<uint32_t>& ids, size_t bound) {
  return std::all_of(ids.begin(), ids.end(), [&](uint32_t id) { return id < bound; });
}
}  // namespace

std::string index_form(const AgentIndex& index) {
  std::string payload;
  ByteWriter out(payload);
  save_analysis(out, index.settings_);
  index.vocabulary_.save(out);
  index.chunk_docs_.save(out);
  index.qa_docs_.save(out);
  out.varint(index.chunks_.size());
  for (const auto& c : index.chunks_) {
    out.varint(c.source);
    out.varint(c.ordinal);
    out.str(c.text);
    out.str(c.heading);
    out.varint(c.sentences.size());
    for (const auto& s : c.sentences) {
      out.varint(s.begin);
      out.varint(s.end);
      out.varint(s.terms_begin);
      out.varint(s.terms_end);
      out.u8(s.heading ? 1 : 0);
    }
    out.str(std::string_view(reinterpret_cast<const char*>(c.terms.data()), c.terms.size()));
    out.ids(c.heading_terms);
  }
  out.varint(index.sources_.size());
  for (const auto& s : index.sources_) {
    out.str(s.id);
    out.str(s.type);
    save_optional(out, s.title);
    save_optional(out, s.url);
    out.ids(s.chunks);
    out.ids(s.title_terms);
  }
  out.varint(index.qa_.size());
  for (const auto& q : index.qa_) {
    out.str(q.source_id);
    out.str(q.question);
    out.str(q.answer);
    out.str(q.key);
    out.ids(q.terms);
    out.ids(q.question_terms);
  }
  // In the ids' order, so that one index always gives the same bytes.
  for (const auto* ids : {&index.source_ids_, &index.qa_ids_}) {
    std::vector<std::pair<std::string_view, uint32_t>> sorted(ids->begin(), ids->end());
    std::sort(sorted.begin(), sorted.end());
    out.varint(sorted.size());
    for (const auto& [id, position] : sorted) {
      out.str(id);
      out.varint(position);
    }
  }

  std::string form;
  form.reserve(kHeaderBytes + payload.size());
  ByteWriter head(form);
  head.raw(kMagic.data(), kMagic.size());
  head.u32(kIndexFormVersion);
  head.u64(payload.size());
  Sha256Digest digest = sha256(payload);
  head.raw(digest.data(), digest.size());
  form += payload;
  return form;
}

std::optional<AgentIndex> index_from_form(std::string_view form,
                                          const KnowledgeSettings& settings) {
  ByteReader head(form);
  if (head.raw(kMagic.size()) != kMagic || head.u32() != kIndexFormVersion) return std::nullopt;
  uint64_t size = head.u64();
  std::string_view digest = head.raw(32);
  if (!head.ok() || head.left() != size) return std::nullopt;
  std::string_view payload = form.substr(kHeaderBytes);
  Sha256Digest actual = sha256(payload);
  if (std::memcmp(actual.data(), digest.data(), actual.size()) != 0) return std::nullopt;

  ByteReader in(payload);
  if (!same_analysis(in, settings)) return std::nullopt;
  AgentIndex index(settings);
  if (!index.vocabulary_.load(in) || !index.chunk_docs_.load(in) || !index.qa_docs_.load(in))
    return std::nullopt;
  const size_t terms = index.vocabulary_.term_count();
  std::vector<uint32_t> decoded;
  index.chunks_.resize(in.count());
  for (auto& c : index.chunks_) {
    c.source = in.id();
    c.ordinal = in.id();
    c.text = in.str();
    c.heading = in.str();
    c.sentences.resize(in.count(5));
    for (auto& s : c.sentences) {
      s.begin = in.id();
      s.end = in.id();
      s.terms_begin = in.id();
      s.terms_end = in.id();
      s.heading = in.u8() != 0;
    }
    std::string_view term_bytes = in.str();
    c.terms.assign(term_bytes.begin(), term_bytes.end());
    c.heading_terms = in.ids();
    decoded.clear();
    for (const auto& s : c.sentences) {
      if (s.begin > s.end || s.end > c.text.size() || s.terms_begin > s.terms_end ||
          s.terms_end > c.terms.size())
        in.fail();
      else
        decode_terms(
            std::span<const uint8_t>(c.terms).subspan(s.terms_begin, s.terms_end - s.terms_begin),
            decoded);
    }
    if (!all_below(decoded, terms) || !all_below(c.heading_terms, terms)) in.fail();
    if (!in.ok()) return std::nullopt;
  }
  index.sources_.resize(in.count());
  for (auto& s : index.sources_) {
    s.id = in.str();
    s.type = in.str();
    s.title = load_optional(in);
    s.url = load_optional(in);
    s.chunks = in.ids();
    s.title_terms = in.ids();
    if (!all_below(s.chunks, index.chunks_.size()) || !all_below(s.title_terms, terms)) in.fail();
    if (!in.ok()) return std::nullopt;
  }
  for (const auto& c : index.chunks_)
    if (!c.text.empty() && c.source >= index.sources_.size()) return std::nullopt;
  index.qa_.resize(in.count());
  for (auto& q : index.qa_) {
    q.source_id = in.str();
    q.question = in.str();
    q.answer = in.str();
    q.key = in.str();
    q.terms = in.ids();
    q.question_terms = in.ids();
    if (!all_below(q.terms, terms) || !all_below(q.question_terms, terms)) in.fail();
    if (!in.ok()) return std::nullopt;
  }
  // Every document of the collections has its entry (add() keeps them the same length).
  if (index.chunks_.size() != index.chunk_docs_.added() ||
      index.qa_.size() != index.qa_docs_.added())
    return std::nullopt;
  const size_t bounds[] = {index.sources_.size(), index.qa_.size()};
  StringMap<uint32_t>* maps[] = {&index.source_ids_, &index.qa_ids_};
  for (size_t m = 0; m < 2; ++m) {
    size_t n = in.count(2);
    for (size_t i = 0; i < n && in.ok(); ++i) {
      std::string id(in.str());
      uint32_t position = in.id();
      if (position >= bounds[m]) in.fail();
      (*maps[m])[id] = position;
    }
  }
  if (!in.ok() || !in.done()) return std::nullopt;
  return index;
}

}  // namespace parley
