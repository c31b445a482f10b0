// The widget: a launcher button and the chat panel (header, transcript log, composer).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { JSX } from "preact";
import { ApiError, describeError, refusalOf } from "./api";
import type { AgentConfig, Blocks, Conversation, LiveChatStatus, Rating, SourceCitation, WidgetApi } from "./api";
import { ReplyBlocks, type BlockActions } from "./blocks";
import { RichText } from "./text";
import * as storage from "./storage";
import { getIdentity, onIdentity } from "./identity";

interface Msg {
  key: string;
  role: "user" | "assistant" | "team" | "notice";
  text: string;
  author?: string | null;
  blocks?: Blocks;
  sources?: SourceCitation[];
  streaming?: boolean;
  csat?: boolean; // a notice that asks for a rating
  id?: string; // the stored message's, once known: an agent reply can then be rated
  rating?: Rating;
}

const rank: Record<LiveChatStatus, number> = { requested: 1, active: 2, ended: 3 };

let keys = 0;
const nextKey = () => "m" + ++keys;

const liveNotices: Record<LiveChatStatus, string> = {
  requested: "Waiting for a team member…",
  active: "A team member has joined the chat.",
  ended: "The live chat has ended.",
};

function timeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

// The transcript as the server stored it: the agent's replies, team members' replies (with an
// author) and the visitor's messages.
function fromServer(c: Conversation): Msg[] {
  return c.messages
    .filter((m) => m.content !== "")
    .map((m) => ({
      key: nextKey(),
      role: m.role === "user" ? "user" : m.authorName ? "team" : "assistant",
      text: m.content,
      author: m.authorName,
      sources: m.sources,
      id: m.id,
      rating: m.rating ?? null,
    }));
}

// Thumbs up or down under an agent reply; pressing the one already given takes it back.
function Thumbs({ rating, onRate }: { rating: Rating; onRate(r: Rating): void }) {
  return (
    <div class="thumbs" role="group" aria-label="Rate this answer">
      <button type="button" aria-label="Helpful" aria-pressed={rating === "up"} onClick={() => onRate(rating === "up" ? null : "up")}>
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M7 10v10H4V10h3zm2 10h8.3a2 2 0 0 0 2-1.6l1.2-6A2 2 0 0 0 18.5 10H14V6a2 2 0 0 0-2-2l-3 6v10z" />
        </svg>
      </button>
      <button type="button" aria-label="Not helpful" aria-pressed={rating === "down"} onClick={() => onRate(rating === "down" ? null : "down")}>
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M17 14V4h3v10h-3zm-2-10H6.7a2 2 0 0 0-2 1.6l-1.2 6A2 2 0 0 0 5.5 14H10v4a2 2 0 0 0 2 2l3-6V4z" />
        </svg>
      </button>
    </div>
  );
}

export function App({ api, agentId }: { api: WidgetApi; agentId: string }) {
  const visitorId = useRef(storage.visitorId(agentId)).current;
  const [open, setOpen] = useState(false);
  const [agent, setAgent] = useState<AgentConfig | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const [messages, setMessages] = useState<Msg[]>([]);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState("");
  const [draft, setDraft] = useState("");
  // A remembered conversation of another signed-in user is not continued: the page now shows
  // someone else.
  const [conversationId, setConversationIdState] = useState<string | null>(() => {
    const id = storage.conversation.get(agentId);
    const was = storage.conversationUser.get(agentId);
    const now = getIdentity()?.userId ?? null;
    return id && was !== null && now !== null && was !== now ? null : id;
  });
  const [live, setLiveState] = useState<LiveChatStatus | null>(null);
  const [rated, setRated] = useState<"no" | "sending" | "yes">("no");
  const conv = useRef(conversationId);
  const liveRef = useRef<LiveChatStatus | null>(null);
  const seen = useRef(new Set<string>()); // ids of stored messages shown
  // Per reply (by key): the rating requests' chain, the newest click's number, the stored rating.
  const ratings = useRef(new Map<string, { last: Promise<void>; newest: number; stored: Rating }>());
  const busy = useRef(false);
  const logRef = useRef<HTMLDivElement>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const launcherRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  const setConversation = (id: string | null) => {
    conv.current = id;
    storage.conversation.set(agentId, id);
    storage.conversationUser.set(agentId, id ? (getIdentity()?.userId ?? null) : null);
    setConversationIdState(id);
  };

  // The page identified another user than the one the conversation was started for.
  const userChanged = () => {
    const was = storage.conversationUser.get(agentId);
    const now = getIdentity()?.userId ?? null;
    return was !== null && now !== null && was !== now;
  };

  // Parley.identify() while a conversation is open: a new user starts afresh; the same visitor
  // signing in binds the conversation they have. Parley.reset() after a signed-in conversation
  // forgets it.
  useEffect(
    () =>
      onIdentity((identity) => {
        const id = conv.current;
        if (!id) return;
        // Signed out (Parley.reset), or another user signed in: the next person starts afresh.
        if (!identity ? storage.conversationUser.get(agentId) !== null : userChanged()) {
          setConversation(null);
          seen.current.clear();
          setMessages([]);
          liveRef.current = null;
          setLiveState(null);
          setRated("no");
          return;
        }
        if (!identity) return;
        storage.conversationUser.set(agentId, identity.userId);
        api.identify(id, visitorId, identity).catch(() => {});
      }),
    [],
  );

  // A change of the conversation's live chat adds a line to the transcript.
  const setLive = (status: LiveChatStatus | null, announce = true) => {
    if (status === liveRef.current) return;
    // A live chat moves requested → active → ended. A reply's "requested" that arrives after the
    // stream said the team joined is stale, and would announce the team a second time.
    if (status === "requested" && liveRef.current === "active") return;
    liveRef.current = status;
    setLiveState(status);
    if (status && announce) {
      setMessages((list) => [...list, { key: nextKey(), role: "notice", text: liveNotices[status], csat: status === "ended" }]);
    }
  };

  // Team members' replies the visitor has not seen yet, and the live chat's state.
  const applyConversation = (c: Conversation) => {
    const fresh = c.messages.filter((m) => !seen.current.has(m.id));
    for (const m of c.messages) seen.current.add(m.id);
    const team = fresh.filter((m) => m.role === "assistant" && m.authorName && m.content);
    // The stream may begin with the conversation as it was before the turn that asked for the
    // team was stored: the live chat only moves forward here (requested, active, ended).
    const status = c.liveChat?.status ?? null;
    const forward = status !== null && rank[status] > (liveRef.current ? rank[liveRef.current] : 0);
    if (forward && status === "active") setLive("active");
    if (team.length) {
      setMessages((list) => [
        ...list,
        ...team.map((m) => ({ key: nextKey(), role: "team" as const, text: m.content, author: m.authorName })),
      ]);
    }
    if (forward && status !== "active") setLive(status);
    if (c.csat) setRated("yes");
  };

  const refuse = (err: unknown): boolean => {
    const r = refusalOf(err);
    if (r) setRefusal(r);
    return r !== null;
  };

  const load = useCallback(() => {
    setUnreachable(false);
    api
      .agent()
      .then(setAgent)
      .catch((err) => {
        if (!refuse(err)) setUnreachable(true);
      });
  }, []);

  // The remembered conversation's transcript. A 404 may only mean that its first exchange is not
  // stored yet (the visitor left the previous page while the reply was being written), so the id
  // is kept and the transcript asked for again when the panel opens, unless a message was sent
  // meanwhile; a message to a conversation that is really gone starts a new one (send).
  const shown = useRef(false); // the transcript is in the log
  const retry = useRef(false); // it could not be read, and nothing was sent since
  const sent = useRef(0); // messages sent from this page
  const loadTranscript = (id: string) => {
    const before = sent.current;
    return api
      .conversation(id, visitorId)
      .then((c) => {
        if (conv.current !== id || shown.current) return;
        shown.current = true;
        retry.current = false;
        for (const m of c.messages) seen.current.add(m.id);
        setMessages((list) => [...fromServer(c), ...list]);
        const status = c.liveChat?.status ?? null;
        liveRef.current = status;
        setLiveState(status);
        if (status === "requested" || status === "active") {
          setMessages((list) => [...list, { key: nextKey(), role: "notice", text: liveNotices[status] }]);
        }
        if (c.csat) setRated("yes");
      })
      .catch(() => {
        if (conv.current === id && sent.current === before) retry.current = true;
      });
  };

  // On load: the agent, and the transcript of the remembered conversation.
  useEffect(() => {
    load();
    if (conv.current) void loadTranscript(conv.current);
  }, []);

  useEffect(() => {
    if (open && retry.current && conv.current) {
      retry.current = false;
      void loadTranscript(conv.current);
    }
  }, [open]);

  // While a team member is asked for or has the chat, follow the conversation's changes.
  useEffect(() => {
    if (!conversationId || (live !== "requested" && live !== "active")) return;
    let poll: ReturnType<typeof setInterval> | undefined;
    const refresh = () => api.conversation(conversationId, visitorId).then(applyConversation, () => {});
    const source = new EventSource(api.eventsUrl(conversationId, visitorId));
    source.addEventListener("conversation", (e) => {
      try {
        applyConversation(JSON.parse((e as MessageEvent).data).data);
      } catch {
        // a malformed event is skipped
      }
    });
    source.onerror = () => {
      // Closed for good (not a reconnect): read the transcript every few seconds instead.
      if (source.readyState === EventSource.CLOSED && !poll) {
        void refresh();
        poll = setInterval(refresh, 4000);
      }
    };
    return () => {
      source.close();
      if (poll) clearInterval(poll);
    };
  }, [conversationId, live]);

  // The newest message in view.
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [messages, open]);

  useEffect(() => {
    if (!open) return;
    (boxRef.current ?? panelRef.current)?.focus();
  }, [open, agent, refusal]);

  const send = async (raw: string) => {
    const text = raw.trim();
    if (!text || busy.current || refusal) return;
    busy.current = true;
    sent.current += 1;
    retry.current = false;
    setSending(true);
    setError("");
    const replyKey = nextKey();
    setMessages((list) => [
      ...list,
      { key: nextKey(), role: "user", text },
      { key: replyKey, role: "assistant", text: "", streaming: true },
    ]);
    const update = (f: (m: Msg) => Msg) => setMessages((list) => list.map((m) => (m.key === replyKey ? f(m) : m)));
    const attempt = (conversationId: string | null) =>
      api.send(
        {
          message: text,
          visitorId,
          conversationId: conversationId ?? undefined,
          page: location.href.slice(0, 2000),
          timeZone: timeZone(),
          ...(getIdentity() ?? {}),
        },
        {
          meta(m) {
            if (m.conversationId && m.conversationId !== conv.current) setConversation(m.conversationId);
            if (m.liveChat === "requested") setLive("requested");
            else if (m.liveChat === "active" || m.liveChat === "paused") setLive("active");
          },
          text(delta) {
            update((m) => ({ ...m, text: m.text + delta }));
          },
          blocks(b) {
            update((m) => ({ ...m, blocks: b, sources: b.sources }));
            if (b.liveChat === "requested") setLive("requested");
            else if (b.liveChat === "paused") setLive("active");
          },
        },
      );
    try {
      try {
        await attempt(conv.current);
      } catch (err) {
        // The remembered conversation is gone (or not this visitor's): start a new one.
        if (conv.current && err instanceof ApiError && err.status === 404) {
          setConversation(null);
          update((m) => ({ ...m, text: "" }));
          await attempt(null);
        } else throw err;
      }
      // The stored reply's id, so that the visitor can rate it.
      const id = conv.current;
      if (id) {
        api.conversation(id, visitorId).then((c) => {
          const stored = [...c.messages].reverse().find((m) => m.role === "assistant" && !m.authorName);
          if (!stored) return;
          for (const m of c.messages) seen.current.add(m.id);
          update((m) => ({ ...m, id: stored.id, rating: stored.rating ?? null }));
        }, () => {});
      }
    } catch (err) {
      if (!refuse(err)) setError(describeError(err));
    } finally {
      // A reply without text (a team member has the chat) leaves no bubble.
      setMessages((list) =>
        list.flatMap((m) => (m.key !== replyKey ? [m] : m.text || hasBlocks(m.blocks) ? [{ ...m, streaming: false }] : [])),
      );
      busy.current = false;
      setSending(false);
    }
  };

  const actions: BlockActions = {
    send: (t) => void send(t),
    busy: sending,
    async submit(kind, body) {
      if (!conv.current) throw new ApiError(404, "not_found", "");
      await api.record(conv.current, kind, { ...body, visitorId });
    },
  };

  // A reply's ratings are sent one after another, in the order clicked: two requests in flight
  // at once could reach the server in either order and store the earlier click. The button shows
  // the newest click at once; when that one fails, the last rating the server stored.
  const rateReply = (key: string, messageId: string, rating: Rating) => {
    const id = conv.current;
    if (!id) return;
    const set = (r: Rating) => setMessages((list) => list.map((m) => (m.key === key ? { ...m, rating: r } : m)));
    let queue = ratings.current.get(key);
    if (!queue) {
      queue = { last: Promise.resolve(), newest: 0, stored: messages.find((m) => m.key === key)?.rating ?? null };
      ratings.current.set(key, queue);
    }
    const q = queue;
    const turn = ++q.newest;
    set(rating);
    q.last = q.last.then(async () => {
      try {
        q.stored = await api.rate(id, messageId, visitorId, rating);
        if (turn === q.newest) set(q.stored);
      } catch (err) {
        if (turn !== q.newest) return;
        set(q.stored);
        setError(describeError(err));
      }
    });
  };

  const rate = async (score: number) => {
    if (!conv.current) return;
    setRated("sending");
    try {
      await api.record(conv.current, "csat", { visitorId, score });
      setRated("yes");
    } catch (err) {
      setRated("no");
      setError(describeError(err));
    }
  };

  const toggle = () => setOpen((o) => !o);
  const onPanelKey = (e: KeyboardEvent) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      setOpen(false);
      launcherRef.current?.focus();
    }
  };
  const onSubmit = (e: JSX.TargetedEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy.current || !draft.trim()) return;
    const text = draft;
    setDraft("");
    void send(text);
  };
  const onBoxKey = (e: JSX.TargetedKeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      e.currentTarget.form?.requestSubmit();
    }
  };

  const name = agent?.name || "Chat";
  const lastReply = [...messages].reverse().find((m) => m.role === "assistant" || m.role === "user");
  const subtitle =
    live === "active" ? "You are chatting with our team" : live === "requested" ? "Waiting for a team member…" : agent?.liveChat ? "Our team is here to help" : "Ask us anything";

  let body;
  if (refusal) {
    body = (
      <p class="refusal" role="status">
        {refusal}
      </p>
    );
  } else if (unreachable) {
    body = (
      <div class="state">
        <p role="alert">The chat could not be reached.</p>
        <button type="button" class="primary" onClick={load}>
          Try again
        </button>
      </div>
    );
  } else if (!agent) {
    body = (
      <p class="state" role="status">
        Loading…
      </p>
    );
  } else {
    body = (
      <>
        <div class="log" role="log" aria-live="polite" aria-label="Messages" aria-busy={sending} ref={logRef}>
          {messages.length === 0 && <p class="intro">Hi! How can we help you today?</p>}
          {messages.map((m) => {
            if (m.role === "notice")
              return (
                <div class="notice" key={m.key}>
                  <p>{m.text}</p>
                  {m.csat && rated !== "yes" && conversationId && (
                    <div class="card" role="group" aria-label="Rate this chat">
                      <p>How would you rate this chat?</p>
                      <div class="rating">
                        {[1, 2, 3, 4, 5].map((n) => (
                          <button type="button" aria-label={`${n} out of 5`} disabled={rated === "sending"} onClick={() => void rate(n)}>
                            {n}
                          </button>
                        ))}
                      </div>
                    </div>
                  )}
                  {m.csat && rated === "yes" && <p>Thank you for your feedback.</p>}
                </div>
              );
            return (
              <div class={"msg " + m.role} key={m.key}>
                {m.role === "team" && <span class="author">{m.author} (team)</span>}
                <div class="bubble">
                  <span class="sr">{m.role === "user" ? "You: " : m.role === "assistant" ? name + ": " : ""}</span>
                  {m.text ? (
                    <RichText text={m.text} />
                  ) : (
                    m.streaming && (
                      <span class="typing" aria-hidden="true">
                        <i />
                        <i />
                        <i />
                      </span>
                    )
                  )}
                </div>
                {m.role === "assistant" && m.blocks && !m.streaming && <ReplyBlocks blocks={m.blocks} actions={actions} last={m === lastReply} />}
                {m.role === "assistant" && !m.blocks && m.sources && m.sources.length > 0 && (
                  <ReplyBlocks blocks={{ ...emptyBlocks, sources: m.sources }} actions={actions} last={false} />
                )}
                {m.role === "assistant" && m.id && !m.streaming && (
                  <Thumbs rating={m.rating ?? null} onRate={(r) => rateReply(m.key, m.id!, r)} />
                )}
              </div>
            );
          })}
        </div>
        {error && (
          <p class="alert" role="alert">
            {error}
          </p>
        )}
        <form class="composer" onSubmit={onSubmit}>
          <textarea
            ref={boxRef}
            aria-label="Message"
            placeholder="Type your message…"
            rows={1}
            maxLength={10000}
            value={draft}
            onInput={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={onBoxKey}
          />
          <button type="submit" disabled={sending}>
            Send
          </button>
        </form>
      </>
    );
  }

  return (
    <div class="root">
      <div
        class="panel"
        id="pw-panel"
        role="dialog"
        aria-labelledby="pw-title"
        hidden={!open}
        ref={panelRef}
        tabIndex={-1}
        onKeyDown={onPanelKey}
      >
        <div class="head">
          <h2 id="pw-title">{name}</h2>
          {!refusal && agent && <span class="sub">{subtitle}</span>}
        </div>
        {body}
      </div>
      <button
        type="button"
        class="launcher"
        ref={launcherRef}
        aria-label={open ? "Close chat" : "Open chat"}
        aria-expanded={open}
        aria-controls="pw-panel"
        onClick={toggle}
      >
        {open ? (
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" />
          </svg>
        ) : (
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M21 12a8 8 0 0 1-11.6 7.1L4 20.5l1.4-4.9A8 8 0 1 1 21 12z" />
          </svg>
        )}
      </button>
    </div>
  );
}

const emptyBlocks: Blocks = { sources: [], followUps: [], buttons: [], products: [], form: null, leadForm: null, booking: null, liveChat: null };

function hasBlocks(b: Blocks | undefined): boolean {
  return !!b && !!(b.buttons?.length || b.products?.length || b.form || b.leadForm || b.booking || b.followUps?.length || b.sources?.length);
}
