// An agent's conversations, newest first, a page at a time, with a search over their messages, and
// (owners and admins) their export.
import { useState } from "preact/hooks";
import { atLeast, get, query } from "../api";
import { useSession } from "../auth";
import { Badge, ErrorText, Loading, Pager, Time, usePaged } from "../components";
import { href } from "../router";
import type { ConversationSummary, Page } from "../types";
import { ExportConversations } from "./conversation_export";

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
  const paged = usePaged(
    (cursor) => get<Page<ConversationSummary>>(`/console/v1/agents/${props.agentId}/conversations` + query({ limit: PAGE_SIZE, cursor, q })),
    [props.agentId, q],
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
      {paged.error && <ErrorText message={paged.error} />}
      {!page && !paged.error && <Loading />}
      {page && page.data.length === 0 && <p class="empty">{q ? `No conversation has a message with “${q}”.` : "No conversations yet."}</p>}
      {page && page.data.length > 0 && (
        <table class="rows-clickable" aria-describedby={q ? "conv-filter" : undefined}>
          {q && <caption id="conv-filter">Conversations with a message containing “{q}”</caption>}
          <thead>
            <tr><th scope="col">Started</th><th scope="col">Last activity</th><th scope="col">Channel</th><th scope="col">Messages</th><th scope="col">Live chat</th><th scope="col">CSAT</th><th scope="col">Topics</th></tr>
          </thead>
          <tbody>
            {page.data.map((c) => (
              <tr key={c.id} onClick={() => open(c.id)}>
                <td><a href={href("agents", props.agentId, "conversations", c.id)} onClick={(e) => e.stopPropagation()}><Time at={c.createdAt} /></a></td>
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
