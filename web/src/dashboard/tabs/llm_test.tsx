// The agent settings' "Test connection": one small call to the language model the form names
// (POST /console/v1/agents/{a}/llm-test with the provider fields as typed, saved or not) and its
// outcome in words: answered in N ms, wrong key, unknown model, unreachable, TLS error. Owners and
// admins only, as the route; it changes nothing.
import { useState } from "preact/hooks";
import { api } from "../api";
import { messageOf } from "../components";

export interface LlmCheck {
  ok: boolean;
  outcome: string;
  message: string;
  status: number | null;
  durationMs: number;
  baseUrl: string;
  model: string;
}

export function LlmTestButton(props: { agentId: string; baseUrl: string; model: string; apiKey: string }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);

  async function run() {
    setBusy(true);
    setResult(null);
    try {
      const llm = { baseUrl: props.baseUrl.trim(), model: props.model.trim(), apiKey: props.apiKey };
      const r = await api<{ data: LlmCheck }>("POST", `/console/v1/agents/${props.agentId}/llm-test`, { llm });
      const where = r.data.baseUrl ? ` (${r.data.model || "no model"} at ${r.data.baseUrl})` : "";
      setResult({ ok: r.data.ok, text: r.data.message + where });
    } catch (err) {
      setResult({ ok: false, text: messageOf(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="actions">
      <button type="button" onClick={run} disabled={busy} aria-describedby="llm-test-result">
        {busy ? "Testing…" : "Test connection"}
      </button>
      <span id="llm-test-result" role="status" class={result ? (result.ok ? "ok" : "error-text") : undefined}>
        {result?.text ?? ""}
      </span>
    </div>
  );
}
