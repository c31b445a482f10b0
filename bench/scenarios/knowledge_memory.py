"""The knowledge memory scenario's driver (bench/scenarios/knowledge_memory.sh): makes the agents,
trains them over HTTP, asks each once in random order (cold), then one many times (hot), and
writes the figures: the server's RSS against the budget, reply latency cold and hot (wall, from
this client; the machine is shared), the server's CPU per cold reply, and how indexes were loaded
(/metrics)."""
import argparse
import http.client
import json
import os
import random
import sqlite3
import subprocess
import sys
import time


def admin(bin_path, *args):
    out = subprocess.run([bin_path, "admin", *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def metrics(conn):
    conn.request("GET", "/metrics")
    body = conn.getresponse().read().decode()
    out = {}
    for line in body.splitlines():
        if line.startswith("parley_knowledge"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(p * (len(v) - 1)))]


def main():
    ap = argparse.ArgumentParser()
    for name in ("bin", "data", "out"):
        ap.add_argument("--" + name, required=True)
    for name in ("port", "pid", "agents", "chars", "budget-mb"):
        ap.add_argument("--" + name, type=int, required=True)
    a = ap.parse_args()
    rng = random.Random(1)
    conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=600)

    def call(method, path, key, body=None):
        headers = {"Authorization": "Bearer " + key}
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        conn.request(method, path, body=body, headers=headers)
        r = conn.getresponse()
        return r.status, json.loads(r.read() or b"null")

    # Prose-like text: sentences of words drawn from a Zipf distribution over 20,000 words, and
    # per agent 200 words of its own (so no two agents know the same things).
    words = ["".join(rng.choice("etaoinshrdlcumwfgypbvk") for _ in range(rng.randint(2, 10))) for _ in range(20000)]
    weights = [1.0 / (i + 1) for i in range(len(words))]
    pool = [" ".join(rng.choices(words, weights, k=rng.randint(8, 17))).capitalize() + "." for _ in range(60000)]
    per_source = 100_000
    agents = []
    t0 = time.time()
    for n in range(a.agents):
        if n % 100 == 0:
            account = admin(a.bin, "account", "create", "--name", f"Bench {n // 100}", "--plan", "enterprise")["id"]
            key = admin(a.bin, "key", "create", "--account", account, "--name", "bench")["key"]
        agent = admin(a.bin, "agent", "create", "--account", account, "--name", f"Agent {n}")["id"]
        own = ["".join(rng.choice("bcdfgjkmpqvwxz") for _ in range(9)) for _ in range(200)]
        sentences, size = [], 0
        while size < a.chars:
            s = rng.choice(pool)
            if rng.random() < 0.2:
                s = s[:-1] + " " + rng.choice(own) + "."
            sentences.append(s)
            size += len(s) + 1
        text = " ".join(sentences)[: a.chars]
        for start in range(0, len(text), per_source):
            status, body = call("POST", f"/api/v1/agents/{agent}/sources", key,
                                {"type": "text", "title": f"Document {start // per_source}",
                                 "content": text[start:start + per_source]})
            assert status < 300, body
        question = " ".join(rng.choice(sentences).rstrip(".").split()[:6]) + "?"
        agents.append((agent, key, question))
    added = time.time()
    for agent, key, _ in agents:
        while True:
            status, body = call("GET", f"/api/v1/agents/{agent}/sources", key)
            if status == 200 and body["training"]["done"]:
                break
            time.sleep(0.2)
    trained = time.time()
    # The trainer stores each agent's form once nothing is left to train.
    db = sqlite3.connect(f"file:{a.data}/parley.db?mode=ro", uri=True)
    while db.execute("SELECT count(*) FROM knowledge_index_forms f JOIN knowledge_versions v"
                     " ON v.agent_id = f.agent_id AND v.version = f.version").fetchone()[0] < a.agents:
        time.sleep(0.5)
    form_mb = db.execute("SELECT sum(bytes) FROM knowledge_index_forms").fetchone()[0] / 2**20
    db.close()
    formed = time.time()
    rss_trained = rss_mb(a.pid)

    def ask(agent, key, question):
        start = time.perf_counter()
        status, body = call("POST", f"/api/v1/agents/{agent}/chat", key, {"message": question})
        assert status == 200, body
        return (time.perf_counter() - start) * 1000

    order = list(range(len(agents)))
    rng.shuffle(order)
    before = metrics(conn)
    cpu0 = cpu_seconds(a.pid)
    cold = [ask(*agents[i]) for i in order]
    cpu_cold = (cpu_seconds(a.pid) - cpu0) / len(order)
    after = metrics(conn)
    rss_asked = rss_mb(a.pid)
    hot_agent = agents[order[-1]]
    cpu0 = cpu_seconds(a.pid)
    hot = [ask(*hot_agent) for _ in range(300)]
    cpu_hot = (cpu_seconds(a.pid) - cpu0) / len(hot)
    rss_end = rss_mb(a.pid)

    loads = lambda m, k: m.get('parley_knowledge_index_loads_total{from="' + k + '"}', 0)
    result = {
        "agents": a.agents, "chars_per_agent": a.chars, "budget_mb": a.budget_mb,
        "add_s": round(added - t0, 1), "train_s": round(trained - added, 1), "forms_s": round(formed - trained, 1),
        "rss_after_training_mb": round(rss_trained), "rss_after_asking_all_mb": round(rss_asked),
        "rss_end_mb": round(rss_end), "rss_limit_mb": a.budget_mb + 150,
        "forms_mb_per_agent": round(form_mb / a.agents, 2),
        "index_memory_mb": round(after.get("parley_knowledge_memory_bytes", 0) / 2**20, 1),
        "indexes_loaded": after.get("parley_knowledge_indexes_loaded", 0),
        "cold_loads_from_form": loads(after, "form") - loads(before, "form"),
        "cold_loads_from_sources": loads(after, "sources") - loads(before, "sources"),
        "evictions": after.get("parley_knowledge_index_evictions_total", 0) - before.get("parley_knowledge_index_evictions_total", 0),
        "cold_p50_ms": round(pct(cold, 0.5), 1), "cold_p99_ms": round(pct(cold, 0.99), 1),
        "cold_cpu_ms_per_reply": round(cpu_cold * 1000, 2),
        "hot_p50_ms": round(pct(hot, 0.5), 2), "hot_p99_ms": round(pct(hot, 0.99), 2),
        "hot_cpu_ms_per_reply": round(cpu_hot * 1000, 2),
    }
    with open(a.out + ".json", "w") as f:
        json.dump(result, f, indent=2)
    with open(a.out + ".md", "w") as f:
        f.write("# Knowledge memory benchmark\n\n")
        f.write(f"{a.agents} agents x {a.chars:,} characters, budget {a.budget_mb} MB "
                "(`bench/scenarios/knowledge_memory.sh`, SQLite, one node; latency is wall time "
                "from the client on a shared machine, CPU is the server process's).\n\n")
        f.write("| figure | value |\n|---|---|\n")
        for k, v in result.items():
            f.write(f"| {k} | {v} |\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    sys.exit(main())
