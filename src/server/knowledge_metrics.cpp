#include "server/knowledge_metrics.h"

namespace parley {

namespace {
void line(std::string& out, const char* name, const char* type, const char* help,
          const std::string& labels, uint64_t value) {
  out += "# HELP ";
  out += name;
  out += ' ';
  out += help;
  out += "\n# TYPE ";
  out += name;
  out += ' ';
  out += type;
  out += '\n';
  out += name;
  out += labels;
  out += ' ' + std::to_string(value) + "\n";
}
}  // namespace

void write_knowledge_metrics(const KnowledgeFigures& f, const CacheFigures& vectors,
                             std::string& out) {
  line(out, "parley_knowledge_memory_budget_bytes", "gauge",
       "What the loaded knowledge indexes and embedding vectors may hold together "
       "(--knowledge-memory-mb).",
       "", f.budget_bytes);
  line(out, "parley_knowledge_memory_bytes", "gauge",
       "What the loaded knowledge indexes and embedding vectors hold together.", "", f.held_bytes);
  line(out, "parley_knowledge_indexes_loaded", "gauge",
       "Agents whose knowledge index is in memory.", "", f.cache.values);
  line(out, "parley_knowledge_index_evictions_total", "counter",
       "Knowledge indexes dropped from memory to stay within the budget.", "", f.cache.evictions);
  line(out, "parley_knowledge_vectors_memory_bytes", "gauge",
       "What the loaded embedding vectors hold (part of parley_knowledge_memory_bytes).", "",
       vectors.bytes);
  line(out, "parley_knowledge_vector_sets_loaded", "gauge",
       "Agents whose embedding vectors are in memory (an agent asked with none stored counts too).",
       "", vectors.values);
  line(out, "parley_knowledge_vector_set_evictions_total", "counter",
       "Agents' embedding vectors dropped from memory to stay within the budget.", "",
       vectors.evictions);
  out +=
      "# HELP parley_knowledge_index_loads_total Knowledge indexes loaded into memory, by where "
      "from.\n";
  out += "# TYPE parley_knowledge_index_loads_total counter\n";
  out += "parley_knowledge_index_loads_total{from=\"form\"} " + std::to_string(f.from_forms) + "\n";
  out += "parley_knowledge_index_loads_total{from=\"sources\"} " + std::to_string(f.from_sources) +
         "\n";
  line(out, "parley_knowledge_index_forms_written_total", "counter",
       "Persisted knowledge index forms this node stored.", "", f.forms_written);
}

}  // namespace parley
