// An agent's conversations as an inbox, newest first, a page at a time: who the visitor is, their
// first question, and badges (unanswered, handed off, rated low) with a filter for each, a search
// over the messages, and (owners and admins) their export.
import { useState } from "preact/hooks";
import { atLeast, get, query } from "../api";
import { useSession } from "../auth";
import { Badge, ErrorText, Loading, Pager, Time, usePaged } from "../components";
import { href } from "../router";
import type { InboxConversation, Page } from "../types";
import { ExportConversations } from "./conversation_export";

const FILTERS = [
  ["", "All conversations"],
  ["unanswered", "Unanswered"],
  ["handed_off", "Handed off"],
  ["rated_low", "Rated low"],
] as const;

const PAGE_SIZE = 20;
// The last search per agent, kept while the dashboard is open so "All conversations" returns to it.
const lastSearch = new Map<string, string>();

export function ConversationsTab(props: { agentId: string }) {
  const { member } = useSession();
  const [typed, setTyped] = useState(() => lastSearch.get(props.agentId) ?? "");
  const [q, setQuery] = useState(typed);
  const setQ = (value: string) => {
    lastSearch.set(props.agentId, value);
    setQuery(value);
  };
  const [filter, setFilter] = useState("");
  const paged = usePaged(
    (cursor) => get<Page<InboxConversation>>(`/console/v1/agents/${props.agentId}/conversations` + query({ limit: PAGE_SIZE, cursor, q, filter })),
    [props.agentId, q, filter],
  );
  const page = paged.page;
  const open = (id: string) => (location.hash = href("agents", props.agentId, "conversations", id));

  return (
    <>
      <h2 id="tab-heading">Conversations</h2>
      {atLeast(member.role, "admin") && <ExportConversations agentId={props.agentId} />}
      <form role="search" class="inline" onSubmit={(e) => { e.preventDefault(); setQ(typed.trim()); }}>
        <label for="conv-search">Search conversations</label>
        <input id="conv-search" type="search" value={typed} maxLength={200} onInput={(e) => setTyped(e.currentTarget.value)} />
        <button type="submit">Search</button>
        {q && <button type="button" class="link" onClick={() => { setTyped(""); setQ(""); }}>Clear search</button>}
      </form>
      <div class="inline" role="group" aria-label="Filter conversations">
        {FILTERS.map(([value, label]) => (
          <button type="button" aria-pressed={filter === value} onClick={() => setFilter(value)}>{label}</button>
        ))}
      </div>
      {paged.error && <ErrorText message={paged.error} />}
      {!page && !paged.error && <Loading />}
      {page && page.data.length === 0 && <p class="empty">{q ? `No conversation has a message with “${q}”.` : filter ? "No conversation has this badge." : "No conversations yet."}</p>}
      {page && page.data.length > 0 && (
        <table class="rows-clickable" aria-describedby={q ? "conv-filter" : undefined}>
          {q && <caption id="conv-filter">Conversations with a message containing “{q}”</caption>}
          <thead>
            <tr><th scope="col">Visitor</th><th scope="col">First question</th><th scope="col">Status</th><th scope="col">Started</th><th scope="col">Last activity</th><th scope="col">Channel</th><th scope="col">Messages</th><th scope="col">Live chat</th><th scope="col">CSAT</th><th scope="col">Topics</th></tr>
          </thead>
          <tbody>
            {page.data.map((c) => (
              <tr key={c.id} onClick={() => open(c.id)}>
                <td><a href={href("agents", props.agentId, "conversations", c.id)} onClick={(e) => e.stopPropagation()}>{visitorOf(c)}</a></td>
                <td><span class="preview" title={c.preview ?? undefined}>{c.preview ?? <span class="muted">—</span>}</span></td>
                <td><span class="badges">
                  {c.badges.unanswered && <Badge kind="unanswered">unanswered</Badge>}
                  {c.badges.handedOff && <Badge kind="handed-off">handed off</Badge>}
                  {c.badges.ratedLow && <Badge kind="rated-low">rated low</Badge>}
                </span></td>
                <td><Time at={c.createdAt} /></td>
                <td><Time at={c.lastActivityAt} /></td>
                <td>{c.channel}{c.country ? ` · ${c.country}` : ""}</td>
                <td class="num">{c.messageCount}</td>
                <td>{c.liveChat ? <Badge kind={c.liveChat}>{c.liveChat}</Badge> : <span class="muted">—</span>}</td>
                <td>{c.csatScore ? `${c.csatScore} / 5` : <span class="muted">—</span>}</td>
                <td>{c.topics.join(", ") || <span class="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page && (page.hasMore || paged.hasPrev) && (
        <Pager label="Conversation pages" pageNumber={paged.pageNumber} hasPrev={paged.hasPrev} hasMore={page.hasMore} onPrev={paged.prev} onNext={paged.next} />
      )}
    </>
  );
}

// Who the visitor is: the contact's or lead's name, else their email, else "Anonymous visitor".
function visitorOf(c: InboxConversation): string {
  return c.visitor?.name || c.visitor?.email || "Anonymous visitor";
}
