// "Export conversations" (owners and admins): every conversation of the agent, any channel, as
// CSV (a row per message) or JSON Lines (a conversation per line), optionally between two UTC
// days, downloaded from the console's streamed export (docs/decisions/records.md).
import { useState } from "preact/hooks";
import { authHeaders, errorFrom, query } from "../api";
import { ErrorText, messageOf } from "../components";

export function ExportConversations(props: { agentId: string }) {
  const [format, setFormat] = useState("csv");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [state, setState] = useState({ busy: false, error: "", done: "" });

  async function submit(e: Event) {
    e.preventDefault();
    setState({ busy: true, error: "", done: "" });
    try {
      const path = `/console/v1/agents/${props.agentId}/conversations/export` + query({ format, from: from || undefined, to: to || undefined });
      const res = await fetch(path, { headers: authHeaders() });
      if (!res.ok) throw await errorFrom(res);
      const blob = await res.blob();
      const name = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? `conversations.${format}`;
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = name;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
      setState({ busy: false, error: "", done: `Exported ${name} (${blob.size.toLocaleString()} bytes).` });
    } catch (err) {
      setState({ busy: false, error: messageOf(err), done: "" });
    }
  }

  return (
    <form class="inline" aria-label="Export conversations" onSubmit={submit}>
      <label for="export-format">Export format</label>
      <select id="export-format" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
        <option value="csv">CSV (a row per message)</option>
        <option value="jsonl">JSON Lines (a conversation per line)</option>
      </select>
      <label for="export-from">From</label>
      <input id="export-from" type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
      <label for="export-to">To</label>
      <input id="export-to" type="date" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
      <button type="submit" disabled={state.busy}>Export conversations</button>
      <span role="status" class="muted">{state.busy ? "Exporting…" : state.done}</span>
      <ErrorText message={state.error} />
    </form>
  );
}
