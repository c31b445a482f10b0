#!/usr/bin/env python3
"""Answer-quality evaluation: how well an agent answers from its knowledge.

What it measures, over HTTP against the real server binary:

  * Two agents of one account are given the same knowledge (tests/data/eval/knowledge.json: the
    text snippets and Q&A pairs of a fictional ferry operator), added with
    POST /api/v1/agents/{id}/sources and trained by the server.
      - "builtin": the built-in answer engine, with showSources on and the corpus's fallback
        message (and answerThreshold when --threshold is given).
      - "llm": engine "openai", pointed at a fake OpenAI-compatible provider run by this script.
        The provider answers every completion with a short fixed text and records the system
        message, i.e. the knowledge the engine retrieved for a real LLM to read.
  * Every question of tests/data/eval/questions.json is sent to both agents
    (POST /api/v1/agents/{id}/chat). Each question is in-scope (kind "snippet" or "qa", with a
    target and an `expect` phrase that any right answer contains) or out-of-scope (kind "oos").

Figures, per split (dev, heldout, all):

  right           in-scope questions whose builtin reply contains `expect` (case-insensitive,
                  whitespace collapsed)
  wrong           in-scope questions answered with something that is neither right nor the
                  fallback message (the worst case: a confident wrong answer)
  fallback        in-scope questions answered with the fallback message
  oos clean       out-of-scope questions answered with exactly the fallback message and no sources
  qa exact        kind "qa" questions answered with exactly the target pair's answer
  context recall  in-scope questions whose `expect` appears in the knowledge part of the system
                  prompt the llm agent sent to the provider (retrieval recall at the prompt's k)
  p50 / p99       latency of the builtin chats, in milliseconds

Results are printed and written to bench/results/eval.md and bench/results/eval.json.
--sweep calibrates answerThreshold: the sources are trained once, then for each value the
builtin agent's answerThreshold is updated and the questions of the chosen split asked again
(written to bench/results/eval_sweep.md and .json). --check-corpus only checks the corpus.

The server runs on a free loopback port with a temporary data directory, both removed at the end,
also on error or Ctrl-C. Python standard library only.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
SPLITS = ("dev", "heldout", "all")
IN_SCOPE = ("snippet", "qa")
KINDS = ("snippet", "qa", "oos")
MIN_SNIPPETS, MIN_LONG_SNIPPETS, MIN_QA = 85, 15, 22
MIN_IN_SCOPE, MIN_QA_QUESTIONS, MIN_OOS = 160, 45, 45
LONG_SNIPPET_SENTENCES = 8
PROVIDER_REPLY = "This is the evaluation provider's fixed reply."
# The system prompt of the openai engine puts the retrieved knowledge after this heading; when it
# is missing the whole system message counts as knowledge.
KNOWLEDGE_MARKER = "\n\nKnowledge"


def norm(text):
    """Lower case with runs of whitespace made one space: how replies and phrases are compared."""
    return " ".join(str(text).split()).casefold()


def percent(n, d):
    return 100.0 * n / d if d else 0.0


# ---------------------------------------------------------------------------------------------
# Corpus


def load_corpus(directory):
    with open(Path(directory) / "knowledge.json", encoding="utf-8") as f:
        knowledge = json.load(f)
    with open(Path(directory) / "questions.json", encoding="utf-8") as f:
        questions = json.load(f)["questions"]
    return knowledge, questions


def sentence_count(text):
    return len(re.findall(r"[.!?](?:\s|$)", text))


def check_corpus(knowledge, questions):
    """Returns (errors, notes). Errors break the rules the metrics rely on; notes are worth a look."""
    errors, notes = [], []
    snippets = {s["id"]: s for s in knowledge.get("snippets", [])}
    pairs = {q["id"]: q for q in knowledge.get("qa", [])}
    if not knowledge.get("fallbackMessage"):
        errors.append("knowledge.json has no fallbackMessage")
    ids = [s["id"] for s in knowledge.get("snippets", [])] + [q["id"] for q in knowledge.get("qa", [])]
    for dup in sorted({i for i in ids if ids.count(i) > 1}):
        errors.append(f"knowledge id {dup} is used more than once")
    qids = [q["id"] for q in questions]
    for dup in sorted({i for i in qids if qids.count(i) > 1}):
        errors.append(f"question id {dup} is used more than once")
    for s in snippets.values():
        if not s.get("title") or not s.get("content"):
            errors.append(f"snippet {s['id']} needs a title and content")
        elif len(s["title"]) > 200:
            errors.append(f"snippet {s['id']}: title over 200 characters")
    for p in pairs.values():
        if not p.get("question") or not p.get("answer"):
            errors.append(f"Q&A {p['id']} needs a question and an answer")
        elif len(p["question"]) > 200:
            errors.append(f"Q&A {p['id']}: question over 200 characters")

    texts = {sid: s["content"] for sid, s in snippets.items()}
    texts.update({pid: p["answer"] for pid, p in pairs.items()})
    by_kind = {k: [] for k in KINDS}
    for q in questions:
        kind, target, expect = q.get("kind"), q.get("target"), q.get("expect")
        where = f"question {q.get('id')}"
        if kind not in KINDS:
            errors.append(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
            continue
        by_kind[kind].append(q)
        if q.get("split") not in ("dev", "heldout"):
            errors.append(f"{where}: split {q.get('split')!r} is not dev or heldout")
        if not q.get("question"):
            errors.append(f"{where}: no question text")
        if kind == "oos":
            if target is not None or expect is not None:
                errors.append(f"{where}: an oos question has null target and expect")
            continue
        pool = snippets if kind == "snippet" else pairs
        if target not in pool:
            errors.append(f"{where}: target {target!r} is not a {'snippet' if kind == 'snippet' else 'Q&A pair'}")
            continue
        if not expect:
            errors.append(f"{where}: no expect phrase")
            continue
        if len(expect.split()) > 6:
            notes.append(f"{where}: expect phrase of more than 6 words: {expect!r}")
        if norm(expect) not in norm(texts[target]):
            errors.append(f"{where}: expect {expect!r} is not in the text of {target}")
        elsewhere = [k for k, t in texts.items() if k != target and norm(expect) in norm(t)]
        if elsewhere:
            notes.append(f"{where}: expect {expect!r} also occurs in {', '.join(sorted(elsewhere))}")

    # Each kind's held-out third: every third question of the kind, in file order.
    for kind, qs in by_kind.items():
        for i, q in enumerate(qs):
            want = "heldout" if i % 3 == 2 else "dev"
            if q.get("split") != want:
                errors.append(f"question {q['id']}: split should be {want} (every third {kind} question is heldout)")

    long_snippets = sum(1 for s in snippets.values() if sentence_count(s.get("content", "")) >= LONG_SNIPPET_SENTENCES)
    in_scope = len(by_kind["snippet"]) + len(by_kind["qa"])
    for what, have, need in (("snippets", len(snippets), MIN_SNIPPETS),
                             (f"long snippets (>= {LONG_SNIPPET_SENTENCES} sentences)", long_snippets, MIN_LONG_SNIPPETS),
                             ("Q&A pairs", len(pairs), MIN_QA),
                             ("in-scope questions", in_scope, MIN_IN_SCOPE),
                             ("questions on Q&A pairs", len(by_kind["qa"]), MIN_QA_QUESTIONS),
                             ("out-of-scope questions", len(by_kind["oos"]), MIN_OOS)):
        if have < need:
            errors.append(f"{have} {what}; at least {need} are needed")
    return errors, notes


def corpus_summary(knowledge, questions):
    long_snippets = sum(1 for s in knowledge["snippets"] if sentence_count(s["content"]) >= LONG_SNIPPET_SENTENCES)
    lines = [f"knowledge: {len(knowledge['snippets'])} snippets ({long_snippets} long), {len(knowledge['qa'])} Q&A pairs",
             "questions: kind      dev  heldout  all"]
    for kind in KINDS:
        qs = [q for q in questions if q["kind"] == kind]
        dev = sum(1 for q in qs if q["split"] == "dev")
        lines.append(f"           {kind:<8} {dev:>4} {len(qs) - dev:>8} {len(qs):>4}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Fake OpenAI-compatible provider


class FakeProvider:
    """Answers POST /v1/chat/completions (streamed as server-sent events, or as one JSON body when
    the request does not ask for a stream) with PROVIDER_REPLY, and keeps each request's system
    message by its last user message. /v1/embeddings answers 404 until `embed` is given a body."""

    def __init__(self):
        self.lock = threading.Lock()
        self.system_by_message = {}
        provider = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                try:
                    request = json.loads(body or b"{}")
                except ValueError:
                    return self.reply(400, "application/json", b'{"error":{"message":"bad json"}}')
                path = self.path.split("?")[0].rstrip("/")
                if path.endswith("/chat/completions"):
                    return self.reply(200, *provider.complete(request))
                if path.endswith("/embeddings"):
                    answer = provider.embed(request)
                    if answer is not None:
                        return self.reply(200, "application/json", json.dumps(answer).encode())
                self.reply(404, "application/json", b'{"error":{"message":"not found"}}')

            def reply(self, status, content_type, payload):
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def complete(self, request):
        messages = request.get("messages") or []
        system = "\n".join(m.get("content") or "" for m in messages if m.get("role") == "system")
        users = [m.get("content") or "" for m in messages if m.get("role") == "user"]
        with self.lock:
            self.system_by_message[users[-1] if users else ""] = system
        if request.get("stream"):
            chunk = {"id": "chatcmpl-eval", "object": "chat.completion.chunk",
                     "choices": [{"index": 0, "delta": {"content": PROVIDER_REPLY}, "finish_reason": None}]}
            done = {"id": "chatcmpl-eval", "object": "chat.completion.chunk",
                    "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
            body = f"data: {json.dumps(chunk)}\n\ndata: {json.dumps(done)}\n\ndata: [DONE]\n\n"
            return "text/event-stream", body.encode()
        body = {"id": "chatcmpl-eval", "object": "chat.completion",
                "choices": [{"index": 0, "message": {"role": "assistant", "content": PROVIDER_REPLY},
                             "finish_reason": "stop"}]}
        return "application/json", json.dumps(body).encode()

    def embed(self, request):
        """The body of a POST /v1/embeddings answer, or None for 404 (no embeddings yet)."""
        return None

    def take_system(self, message):
        with self.lock:
            return self.system_by_message.pop(message, None)

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# ---------------------------------------------------------------------------------------------
# The server under test


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ApiError(Exception):
    pass


class Server:
    """The parley binary serving on a free loopback port with a temporary data directory."""

    def __init__(self, binary, provider_port):
        self.binary = str(binary)
        self.data = tempfile.mkdtemp(prefix="parley-eval-")
        self.env = dict(os.environ, PARLEY_DATA_DIR=self.data)
        self.port = free_port()
        self.log = open(os.path.join(self.data, "server.log"), "wb")
        self.proc = subprocess.Popen(
            [self.binary, "serve", "--listen", f"127.0.0.1:{self.port}",
             "--rate-limit-per-minute", "1000000", "--agent-replies-per-hour", "100000000",
             "--llm-base-url", f"http://127.0.0.1:{provider_port}", "--llm-model", "eval"],
            env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        self.conn = None
        deadline = time.time() + 20
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log_tail()}")
            try:
                status, _ = self.request("GET", "/healthz")
                if status == 200:
                    break
            except OSError:
                self.conn = None
            if time.time() > deadline:
                raise RuntimeError(f"the server did not answer /healthz:\n{self.log_tail()}")
            time.sleep(0.05)

    def log_tail(self):
        self.log.flush()
        with open(os.path.join(self.data, "server.log"), "rb") as f:
            return f.read()[-2000:].decode(errors="replace")

    def request(self, method, path, body=None, key=None):
        """(status, parsed JSON or text). Keeps one connection alive; reconnects once if it closed."""
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        payload = None if body is None else json.dumps(body).encode()
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=70)
            try:
                self.conn.request(method, path, body=payload, headers=headers)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
        try:
            return response.status, json.loads(raw)
        except ValueError:
            return response.status, raw.decode(errors="replace")

    def admin(self, *args):
        """Runs `parley admin ARGS` on the server's database; returns its JSON or raises ApiError."""
        done = subprocess.run([self.binary, "admin", *args], env=self.env, capture_output=True, text=True)
        if done.returncode != 0:
            raise ApiError((done.stderr or done.stdout).strip() or f"exit status {done.returncode}")
        return json.loads(done.stdout)

    def stop(self):
        if self.conn is not None:
            self.conn.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        shutil.rmtree(self.data, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Setting up the agents


def add_sources(server, key, agent_id, knowledge):
    path = f"/api/v1/agents/{agent_id}/sources"
    for s in knowledge["snippets"]:
        status, body = server.request("POST", path, {"type": "text", "title": s["title"], "content": s["content"]}, key)
        if status not in (200, 201):
            raise ApiError(f"adding snippet {s['id']} failed: {status} {body}")
    for p in knowledge["qa"]:
        status, body = server.request("POST", path, {"type": "qa", "question": p["question"], "answer": p["answer"]}, key)
        if status not in (200, 201):
            raise ApiError(f"adding Q&A {p['id']} failed: {status} {body}")


def wait_trained(server, key, agent_id, timeout=120):
    deadline = time.time() + timeout
    while True:
        status, body = server.request("GET", f"/api/v1/agents/{agent_id}/sources", key=key)
        if status != 200:
            raise ApiError(f"listing sources failed: {status} {body}")
        training = body["training"]
        if training.get("done"):
            if training.get("failed"):
                raise ApiError(f"{training['failed']} sources failed to train: {training}")
            return
        if time.time() > deadline:
            raise ApiError(f"training did not finish in {timeout} s: {training}")
        time.sleep(0.05)


def set_threshold(server, agent_id, value):
    """Sets answerThreshold on the agent; returns None, or the reason the server refused it."""
    try:
        server.admin("agent", "update", agent_id, "--settings", json.dumps({"answerThreshold": value}))
        return None
    except ApiError as e:
        try:
            return json.loads(str(e))["error"]["message"]
        except (ValueError, KeyError, TypeError):
            return str(e)


# ---------------------------------------------------------------------------------------------
# Asking and scoring


def ask(server, key, agent_id, message):
    start = time.perf_counter()
    status, body = server.request("POST", f"/api/v1/agents/{agent_id}/chat", {"message": message}, key)
    ms = (time.perf_counter() - start) * 1000
    if status != 200:
        raise ApiError(f"chat with agent {agent_id} failed: {status} {body}")
    return body, ms


def knowledge_part(system):
    at = system.find(KNOWLEDGE_MARKER)
    return system if at < 0 else system[at + len(KNOWLEDGE_MARKER):]


def score(question, reply, sources, fallback):
    """The outcome of one builtin reply: right, wrong, fallback (in scope) or clean, answered (oos)."""
    is_fallback = reply.strip() == fallback.strip()
    if question["kind"] == "oos":
        return "clean" if is_fallback and not sources else "answered"
    if norm(question["expect"]) in norm(reply):
        return "right"
    return "fallback" if is_fallback else "wrong"


def run_questions(server, key, agents, questions, knowledge, provider, verbose):
    """Asks every question; returns one result dict per question."""
    fallback = knowledge["fallbackMessage"]
    answers = {p["id"]: p["answer"] for p in knowledge["qa"]}
    results = []
    for q in questions:
        body, ms = ask(server, key, agents["builtin"], q["question"])
        reply = body.get("reply") or ""
        sources = body.get("sources") or []
        r = {"id": q["id"], "split": q["split"], "kind": q["kind"], "target": q["target"],
             "outcome": score(q, reply, sources, fallback), "ms": round(ms, 3), "reply": reply[:300],
             "sources": [s.get("title") for s in sources]}
        if q["kind"] == "qa":
            r["qa_exact"] = reply.strip() == answers[q["target"]].strip()
        if "llm" in agents:
            ask(server, key, agents["llm"], q["question"])
            system = provider.take_system(q["question"])
            if system is None:
                raise ApiError(f"the llm agent did not call the provider for {q['id']}")
            context = knowledge_part(system)
            r["context_items"] = len(re.findall(r"^\[\d+\]", context, re.M))
            if q["kind"] in IN_SCOPE:
                r["in_context"] = norm(q["expect"]) in norm(context)
        results.append(r)
        if verbose and r["outcome"] not in ("right", "clean"):
            expected = q["expect"] if q["kind"] != "oos" else "(the fallback message)"
            print(f"  {q['id']} [{q['split']} {q['kind']} {q['target'] or '-'}] {r['outcome']}: {q['question']}\n"
                  f"      expected: {expected}\n      got: {reply[:300]!r}"
                  + (f"  sources: {r['sources']}" if r["sources"] else ""))
    return results


def percentile(values, p):
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def summarize(results, split):
    rs = [r for r in results if split == "all" or r["split"] == split]
    ins = [r for r in rs if r["kind"] in IN_SCOPE]
    oos = [r for r in rs if r["kind"] == "oos"]
    qa = [r for r in rs if r["kind"] == "qa"]
    count = lambda items, outcome: sum(1 for r in items if r["outcome"] == outcome)
    s = {"in_scope": len(ins), "oos": len(oos), "qa": len(qa),
         "right": count(ins, "right"), "wrong": count(ins, "wrong"), "fallback": count(ins, "fallback"),
         "oos_clean": count(oos, "clean"), "qa_exact": sum(1 for r in qa if r.get("qa_exact")),
         "p50_ms": round(percentile([r["ms"] for r in rs], 50), 2),
         "p99_ms": round(percentile([r["ms"] for r in rs], 99), 2)}
    with_context = [r for r in ins if "in_context" in r]
    if with_context:
        s["context_recall"] = sum(1 for r in with_context if r["in_context"])
        s["context_items_mean"] = round(sum(r["context_items"] for r in rs) / len(rs), 2)
    return s


ROWS = (("right", "right answers", "in_scope"), ("wrong", "wrong answers (not fallback)", "in_scope"),
        ("fallback", "in-scope given the fallback", "in_scope"), ("oos_clean", "out-of-scope clean", "oos"),
        ("qa_exact", "Q&A paraphrase hits (exact answer)", "qa"),
        ("context_recall", "context recall (expect in LLM prompt)", "in_scope"))


def table(summaries, splits):
    lines = ["| figure | " + " | ".join(splits) + " |", "|---|" + "---|" * len(splits)]
    for key, label, of in ROWS:
        if key not in summaries[splits[0]]:
            continue
        cells = [f"{s[key]}/{s[of]} ({percent(s[key], s[of]):.1f}%)" for s in (summaries[x] for x in splits)]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    if "context_items_mean" in summaries[splits[0]]:
        lines.append("| knowledge items in the LLM prompt (mean) | "
                     + " | ".join(str(summaries[x]["context_items_mean"]) for x in splits) + " |")
    lines.append("| builtin latency p50 / p99 (ms) | "
                 + " | ".join(f"{summaries[x]['p50_ms']} / {summaries[x]['p99_ms']}" for x in splits) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Main


def interrupt(signum, frame):
    raise KeyboardInterrupt


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--binary", default=str(ROOT / "build" / "parley"), help="server binary (default build/parley)")
    p.add_argument("--corpus", default=str(ROOT / "tests" / "data" / "eval"), help="corpus directory")
    p.add_argument("--split", choices=SPLITS, default="all", help="questions to ask (default all)")
    p.add_argument("--threshold", type=float, help="answerThreshold of the builtin agent")
    p.add_argument("--sweep", help="comma-separated answerThreshold values to compare, e.g. 0.2,0.3,0.4")
    p.add_argument("--no-llm", action="store_true", help="skip the llm agent (no context recall)")
    p.add_argument("--verbose", action="store_true", help="print every failure")
    p.add_argument("--check-corpus", action="store_true", help="only check the corpus")
    p.add_argument("--out", default=str(RESULTS), help="results directory (default bench/results)")
    return p.parse_args()


def write_results(out_dir, stem, markdown, data):
    """Writes STEM.md and STEM.json; a list under "results" is written one item a line, so that a
    diff of two runs shows which questions changed."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{stem}.md").write_text(markdown, encoding="utf-8")
    rest = {k: v for k, v in data.items() if k != "results"}
    text = json.dumps(rest, indent=1, ensure_ascii=False)
    if "results" in data:
        lines = ",\n".join("  " + json.dumps(r, ensure_ascii=False) for r in data["results"])
        text = text[:-2] + ',\n "results": [\n' + lines + "\n ]\n}"
    (out / f"{stem}.json").write_text(text + "\n", encoding="utf-8")


def source_state():
    """The commit of the source tree (and whether it has uncommitted changes) at run time."""
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        return commit + (" with uncommitted changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def header(args, knowledge, questions, started):
    corpus = Path(args.corpus).resolve()
    shown = corpus.relative_to(ROOT) if corpus.is_relative_to(ROOT) else corpus
    return (f"Corpus `{shown}`: {knowledge['business']}; {len(knowledge['snippets'])} snippets, "
            f"{len(knowledge['qa'])} Q&A pairs, {len(questions)} questions asked (split {args.split}).\n"
            f"Binary `{args.binary}`, source tree at commit {source_state()}; run {started}.\n")


def main():
    args = parse_args()
    knowledge, questions = load_corpus(args.corpus)
    errors, notes = check_corpus(knowledge, questions)
    if args.check_corpus:
        print(corpus_summary(knowledge, questions))
        for n in notes:
            print(f"note: {n}")
        for e in errors:
            print(f"error: {e}")
        print("corpus OK" if not errors else f"{len(errors)} corpus errors")
        return 1 if errors else 0
    if errors:
        for e in errors:
            print(f"error: {e}", file=sys.stderr)
        print("the corpus has errors (see --check-corpus); not running", file=sys.stderr)
        return 1
    if not Path(args.binary).is_file():
        print(f"no server binary at {args.binary} (make build, or --binary PATH)", file=sys.stderr)
        return 1
    sweep = [float(v) for v in args.sweep.split(",") if v.strip()] if args.sweep else []
    use_llm = not args.no_llm and not sweep
    asked = [q for q in questions if args.split == "all" or q["split"] == args.split]

    # SIGTERM and SIGINT end the run alike, so that the server and its directory are cleaned up.
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)
    provider = FakeProvider()
    server = None
    try:
        started_at = time.strftime("%Y-%m-%d %H:%M")
        t0 = time.time()
        server = Server(args.binary, provider.port)
        account = server.admin("account", "create", "--name", "Eval", "--plan", "enterprise")["id"]
        key = server.admin("key", "create", "--account", account, "--name", "eval")["key"]
        fallback = knowledge["fallbackMessage"]
        agents = {"builtin": server.admin("agent", "create", "--account", account, "--name", "builtin", "--settings",
                                          json.dumps({"showSources": True, "fallbackMessage": fallback}))["id"]}
        if use_llm:
            agents["llm"] = server.admin("agent", "create", "--account", account, "--name", "llm", "--settings",
                                         json.dumps({"engine": "openai", "fallbackMessage": fallback}))["id"]
        threshold_note = ""
        if args.threshold is not None:
            refused = set_threshold(server, agents["builtin"], args.threshold)
            if refused:
                threshold_note = f"answerThreshold {args.threshold} was refused by the server ({refused}); run without it."
                print(f"warning: {threshold_note}", file=sys.stderr)
            else:
                threshold_note = f"answerThreshold {args.threshold}."
        for agent_id in agents.values():
            add_sources(server, key, agent_id, knowledge)
        for agent_id in agents.values():
            wait_trained(server, key, agent_id)
        trained_s = time.time() - t0

        if sweep:
            return run_sweep(args, server, key, agents, asked, knowledge, provider, sweep, trained_s,
                             header(args, knowledge, asked, started_at))

        results = run_questions(server, key, agents, asked, knowledge, provider, args.verbose)
        splits = [s for s in SPLITS if args.split in ("all", s)]
        summaries = {s: summarize(results, s) for s in splits}
        md = ("# Answer-quality evaluation\n\n" + header(args, knowledge, asked, started_at)
              + (f"Builtin agent: {threshold_note}\n" if threshold_note else "")
              + f"\n{table(summaries, splits)}\n\n"
              "Right: the reply contains the question's expected phrase. Wrong: neither right nor the fallback "
              "message. Out-of-scope clean: exactly the fallback message and no sources. Context recall: the "
              "expected phrase is in the knowledge the `openai` engine put in its prompt. "
              f"Setup and training took {trained_s:.1f} s; whole run {time.time() - t0:.1f} s.\n")
        print(md)
        write_results(args.out, "eval", md, {"binary": str(args.binary), "split": args.split,
                                             "threshold": args.threshold, "threshold_note": threshold_note,
                                             "summary": summaries, "results": results})
        print(f"results in {Path(args.out) / 'eval.md'} and eval.json")
        return 0
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except (ApiError, RuntimeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        if server is not None:
            print(f"server log (end):\n{server.log_tail()}", file=sys.stderr)
        return 1
    finally:
        if server is not None:
            server.stop()
        provider.stop()


def run_sweep(args, server, key, agents, asked, knowledge, provider, values, trained_s, head):
    rows = []
    for value in values:
        refused = set_threshold(server, agents["builtin"], value)
        if refused:
            print(f"warning: the server refused answerThreshold ({refused}); sweeping is not possible, "
                  "so the questions are asked once without it.", file=sys.stderr)
            value = None
        results = run_questions(server, key, agents, asked, knowledge, provider, args.verbose)
        s = summarize(results, "all")
        rows.append({"threshold": value, **s})
        label = "none" if value is None else value
        print(f"threshold {label}: right {percent(s['right'], s['in_scope']):.1f}%  "
              f"wrong {percent(s['wrong'], s['in_scope']):.1f}%  "
              f"oos clean {percent(s['oos_clean'], s['oos']):.1f}%", flush=True)
        if value is None:
            break
    lines = ["| answerThreshold | right | wrong | in-scope fallback | oos clean | Q&A exact | p50 ms |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {'none' if r['threshold'] is None else r['threshold']} "
                     f"| {r['right']}/{r['in_scope']} ({percent(r['right'], r['in_scope']):.1f}%) "
                     f"| {r['wrong']}/{r['in_scope']} ({percent(r['wrong'], r['in_scope']):.1f}%) "
                     f"| {r['fallback']}/{r['in_scope']} ({percent(r['fallback'], r['in_scope']):.1f}%) "
                     f"| {r['oos_clean']}/{r['oos']} ({percent(r['oos_clean'], r['oos']):.1f}%) "
                     f"| {r['qa_exact']}/{r['qa']} | {r['p50_ms']} |")
    md = (f"# Answer-quality evaluation: answerThreshold sweep\n\n{head}\n" + "\n".join(lines)
          + f"\n\nTrained once ({trained_s:.1f} s), then the builtin agent's answerThreshold set to each value "
          "and the questions asked again.\n")
    print("\n" + md)
    write_results(args.out, "eval_sweep", md, {"binary": str(args.binary), "split": args.split, "rows": rows})
    print(f"results in {Path(args.out) / 'eval_sweep.md'} and eval_sweep.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
