// The live-chat inbox: conversations whose live chat is requested or active, pushed by the
// server as server-sent events (read with fetch, which can send the Authorization header). After
// an error or a dropped stream it connects again after 1 s, 2 s, 4 s … up to 30 s.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, atLeast, authHeaders, errorFrom } from "../api";
import { useSession } from "../auth";
import { Badge, ErrorText, messageOf, Time } from "../components";
import { readEvents } from "../../shared/sse";
import type { Conversation, ConversationSummary } from "../types";
import { ConversationFacts, loadConversation, Transcript } from "./transcript";

type Connection = "connecting" | "live" | "reconnecting" | "failed";

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((ok) => {
    const t = setTimeout(ok, ms);
    signal.addEventListener("abort", () => { clearTimeout(t); ok(); });
  });

function useInbox(agentId: string) {
  const [chats, setChats] = useState<ConversationSummary[] | null>(null);
  const [connection, setConnection] = useState<Connection>("connecting");
  const [error, setError] = useState("");
  useEffect(() => {
    const ctrl = new AbortController();
    const url = `/console/v1/agents/${encodeURIComponent(agentId)}/live-chats/events`;
    (async () => {
      let delay = 1000;
      while (!ctrl.signal.aborted) {
        try {
          const res = await fetch(url, { headers: authHeaders({ Accept: "text/event-stream" }), signal: ctrl.signal, cache: "no-store" });
          if (!res.ok) {
            const err = await errorFrom(res);
            if (res.status >= 400 && res.status < 500 && res.status !== 429) {
              setError(err.message);
              setConnection("failed");
              return; // retrying cannot help
            }
            throw err;
          }
          for await (const ev of readEvents(res.body!)) {
            if (ev.event !== "inbox") continue;
            setChats(JSON.parse(ev.data).data);
            setConnection("live");
            setError("");
            delay = 1000;
          }
          if (ctrl.signal.aborted) return;
          setError("The live connection closed.");
        } catch (err) {
          if (ctrl.signal.aborted) return;
          setError(messageOf(err));
        }
        setConnection("reconnecting");
        await sleep(delay, ctrl.signal);
        delay = Math.min(delay * 2, 30_000);
      }
    })();
    return () => ctrl.abort();
  }, [agentId]);
  return { chats, connection, error };
}

const CONNECTION_TEXT: Record<Connection, string> = {
  connecting: "Connecting…",
  live: "Live: updates appear as they happen.",
  reconnecting: "Connection lost; reconnecting…",
  failed: "Not connected.",
};

export function LiveChatTab(props: { agentId: string }) {
  const { chats, connection, error } = useInbox(props.agentId);
  const [selected, setSelected] = useState<string | null>(null);
  const summary = chats?.find((c) => c.id === selected);

  return (
    <>
      <h2 id="tab-heading">Live chat</h2>
      <p class={"connection " + connection} role="status">{CONNECTION_TEXT[connection]}</p>
      {error && connection !== "live" && <ErrorText message={error} />}
      <div class="inbox-layout">
        <section aria-labelledby="inbox-heading" class="inbox">
          <h3 id="inbox-heading">Inbox{chats ? ` (${chats.length})` : ""}</h3>
          {chats && chats.length === 0 && <p class="empty">No one is waiting for a person right now.</p>}
          {chats && chats.length > 0 && (
            <ul>
              {chats.map((c) => (
                <li key={c.id}>
                  <button type="button" class="inbox-item" aria-pressed={c.id === selected} onClick={() => setSelected(c.id)}>
                    <span class="strong">{c.channel === "widget" ? "Website visitor" : "API user"}{c.country ? ` (${c.country})` : ""}</span>
                    <Badge kind={c.liveChat ?? ""}>{c.liveChat}</Badge>
                    <span class="muted">{c.messageCount} {c.messageCount === 1 ? "message" : "messages"} · last <Time at={c.lastActivityAt} /></span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
        <section aria-labelledby="chat-heading" class="chat-panel">
          {selected ? (
            <OpenChat key={selected} conversationId={selected} version={summary ? JSON.stringify(summary) : "gone"} />
          ) : (
            <>
              <h3 id="chat-heading">Chat</h3>
              <p class="muted">Select a chat in the inbox to see its transcript.</p>
            </>
          )}
        </section>
      </div>
    </>
  );
}

// The open chat; `version` changes whenever the inbox reports a change to it, which reloads it.
function OpenChat(props: { conversationId: string; version: string }) {
  const { member } = useSession();
  const canAct = atLeast(member.role, "editor");
  const [chat, setChat] = useState<Conversation | null>(null);
  const [error, setError] = useState("");
  const [reply, setReply] = useState("");
  const [busy, setBusy] = useState(false);
  const run = useRef(0);
  const base = `/console/v1/conversations/${encodeURIComponent(props.conversationId)}`;

  async function reload() {
    const mine = ++run.current;
    try {
      const c = await loadConversation(props.conversationId);
      if (mine === run.current) setChat(c);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  useEffect(() => void reload(), [props.version]);

  async function act(path: string, body?: unknown) {
    setBusy(true);
    setError("");
    try {
      const r = await api<{ data: any }>("POST", `${base}/${path}`, body);
      if (path === "reply") {
        setReply("");
        await reload();
      } else {
        run.current++;
        setChat(r.data as Conversation);
      }
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }

  const status = chat?.liveChat?.status;
  return (
    <>
      <h3 id="chat-heading">Chat {status && <Badge kind={status}>{status}</Badge>}</h3>
      {!chat && !error && <p class="muted">Loading…</p>}
      {chat && <ConversationFacts c={chat} />}
      {chat && canAct && (
        <div class="actions">
          {status !== "active" && <button type="button" class="primary" disabled={busy} onClick={() => act("takeover")}>Take over</button>}
          {status === "active" && <button type="button" class="danger" disabled={busy} onClick={() => act("end")}>End chat</button>}
        </div>
      )}
      {chat && !canAct && <p class="notice">Your role ({member.role}) can read chats; editors and above take them over.</p>}
      <ErrorText message={error} />
      {chat && <Transcript messages={chat.messages} />}
      {chat && canAct && status === "active" && (
        <form class="reply" onSubmit={(e) => { e.preventDefault(); act("reply", { message: reply }); }}>
          <label for="reply-box">Reply</label>
          <textarea id="reply-box" rows={3} value={reply} maxLength={10000} onInput={(e) => setReply(e.currentTarget.value)}
            onKeyDown={(e) => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); act("reply", { message: reply }); } }} />
          <button type="submit" class="primary" disabled={busy || !reply.trim()}>Send reply</button>
        </form>
      )}
    </>
  );
}
