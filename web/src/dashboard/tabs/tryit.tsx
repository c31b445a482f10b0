// "Try it": chat with the agent as a visitor would, the reply streamed as server-sent events
// (meta, text, blocks, done or error; docs/decisions/chat-events.md).
import { useEffect, useRef, useState } from "preact/hooks";
import { authHeaders, errorFrom } from "../api";
import { messageOf } from "../components";
import { readEvents } from "../../shared/sse";
import type { Blocks } from "../types";
import { BlockList } from "./transcript";

interface Turn {
  role: "user" | "assistant";
  text: string;
  blocks?: Blocks;
  error?: string;
  done?: boolean;
}

export function TryItTab(props: { agentId: string }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [message, setMessage] = useState("");
  const [conversationId, setConversationId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const log = useRef<HTMLOListElement>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => log.current?.lastElementChild?.scrollIntoView({ block: "nearest" }), [turns]);

  async function send(e: Event) {
    e.preventDefault();
    const text = message.trim();
    if (!text || busy) return;
    setMessage("");
    setBusy(true);
    let reply: Turn = { role: "assistant", text: "" };
    const history = [...turns, { role: "user" as const, text }];
    const show = (t: Turn) => {
      reply = t;
      setTurns([...history, t]);
    };
    show(reply);
    const ctrl = new AbortController();
    abort.current = ctrl;
    try {
      const body: Record<string, unknown> = { message: text, stream: true };
      if (conversationId) body.conversationId = conversationId;
      const res = await fetch(`/console/v1/agents/${props.agentId}/messages`, {
        method: "POST",
        headers: authHeaders({ "Content-Type": "application/json", Accept: "text/event-stream" }),
        body: JSON.stringify(body),
        signal: ctrl.signal,
      });
      if (!res.ok) throw await errorFrom(res);
      for await (const ev of readEvents(res.body!)) {
        const data = JSON.parse(ev.data);
        if (ev.event === "meta") setConversationId(data.conversationId);
        else if (ev.event === "text") show({ ...reply, text: reply.text + data.delta });
        else if (ev.event === "blocks") show({ ...reply, blocks: data });
        else if (ev.event === "done") show({ ...reply, done: true });
        else if (ev.event === "error") show({ ...reply, error: data.error?.message ?? "The reply failed." });
      }
      if (!reply.done && !reply.error) show({ ...reply, error: "The reply stopped before it was complete." });
    } catch (err) {
      if (!ctrl.signal.aborted) show({ ...reply, error: messageOf(err) });
    } finally {
      setBusy(false);
    }
  }

  function restart() {
    abort.current?.abort();
    setTurns([]);
    setConversationId(null);
  }

  return (
    <>
      <div class="title-row">
        <h2 id="tab-heading">Try it</h2>
        <button type="button" onClick={restart} disabled={turns.length === 0}>New conversation</button>
      </div>
      <p class="muted">Chat with the agent as a visitor would (private agents answer here too). These conversations are saved like any other.</p>
      <div class="tryit">
        <ol class="transcript" ref={log} aria-live="polite" aria-label="Chat">
          {turns.length === 0 && <li class="empty">Ask the agent something to see how it answers.</li>}
          {turns.map((t) => (
            <li class={"msg " + (t.role === "user" ? "from-user" : "from-agent")} aria-busy={t.role === "assistant" && !t.done && !t.error}>
              <div class="msg-head"><span class="who">{t.role === "user" ? "You" : "Agent"}</span></div>
              <div class="msg-body">{t.text || (t.role === "assistant" && !t.done && !t.error ? "…" : "")}</div>
              {t.blocks && <BlockList blocks={t.blocks} />}
              {t.blocks?.liveChat && <p class="muted">Live chat: {t.blocks.liveChat}</p>}
              {t.error && <div role="alert" class="error">{t.error}</div>}
            </li>
          ))}
        </ol>
        <form class="composer" onSubmit={send}>
          <label for="try-message">Message</label>
          <input id="try-message" value={message} maxLength={10000} autocomplete="off" onInput={(e) => setMessage(e.currentTarget.value)} />
          <button type="submit" class="primary" disabled={busy || !message.trim()}>Send</button>
        </form>
      </div>
    </>
  );
}
