// One conversation: its facts (channel, live chat, CSAT, …) and its messages with their sources.
import { safeImageUrl, safeUrl } from "../../shared/url";
import { useState } from "preact/hooks";
import { api, atLeast, get } from "../api";
import { useSession } from "../auth";
import { Badge, ErrorText, Loading, Time, useLoad } from "../components";
import { AnswerDialog } from "./gaps";
import { href } from "../router";
import type { Blocks, Citation, Conversation, Message } from "../types";

export const loadConversation = (id: string) =>
  get<{ data: Conversation }>(`/console/v1/conversations/${encodeURIComponent(id)}`).then((r) => r.data);

export function TranscriptView(props: { agentId: string; conversationId: string }) {
  const { data, error } = useLoad(() => loadConversation(props.conversationId), [props.conversationId]);
  return (
    <>
      <p class="back"><a href={href("agents", props.agentId, "conversations")}>← All conversations</a></p>
      <h2 id="tab-heading">Conversation</h2>
      {error && <ErrorText message={error} />}
      {!data && !error && <Loading />}
      {data && (
        <>
          <ConversationFacts c={data} />
          <h3>Transcript</h3>
          <Transcript messages={data.messages} conversationId={data.id} />
        </>
      )}
    </>
  );
}

export function ConversationFacts({ c }: { c: Conversation }) {
  return (
    <dl class="facts">
      <div><dt>Channel</dt><dd>{c.channel}</dd></div>
      <div><dt>Started</dt><dd><Time at={c.createdAt} /></dd></div>
      <div><dt>Last activity</dt><dd><Time at={c.lastActivityAt} /></dd></div>
      {c.country && <div><dt>Country</dt><dd>{c.country}</dd></div>}
      {c.page && <div><dt>Page</dt><dd class="break">{c.page}</dd></div>}
      {c.identity && <div><dt>Visitor</dt><dd><VisitorIdentity identity={c.identity} /></dd></div>}
      <div><dt>Live chat</dt><dd>{c.liveChat ? <Badge kind={c.liveChat.status}>{c.liveChat.status}</Badge> : "none"}</dd></div>
      <div><dt>CSAT</dt><dd>{c.csat ? `${c.csat.score} / 5${c.csat.comment ? ` — “${c.csat.comment}”` : ""}` : "not rated"}</dd></div>
      {c.handoffRequestedAt && <div><dt>Handed off</dt><dd><Time at={c.handoffRequestedAt} /></dd></div>}
      {c.sentiment && <div><dt>Sentiment</dt><dd>{c.sentiment}</dd></div>}
      {c.topics.length > 0 && <div><dt>Topics</dt><dd>{c.topics.join(", ")}</dd></div>}
    </dl>
  );
}

// The widget identity the conversation holds (docs/decisions/widget-identity.md): a verified
// contact, or why the visitor is anonymous.
const IDENTITY_NOTES: Record<string, string> = {
  anonymous: "anonymous",
  invalid_signature: "anonymous: the signature did not verify",
  missing_signature: "anonymous: the user id came without a signature",
  no_secret: "anonymous: the agent has no identity secret",
  contact_limit_reached: "anonymous: the plan's contacts are all taken",
};

function VisitorIdentity({ identity }: { identity: NonNullable<Conversation["identity"]> }) {
  if (identity.status === "verified")
    return (
      <>
        <Badge kind="verified">verified</Badge> {identity.externalId}
        {identity.contactId && <span class="muted"> (contact {identity.contactId})</span>}
      </>
    );
  const note = IDENTITY_NOTES[identity.status] ?? identity.status;
  return <>{note}{identity.externalId && identity.status !== "anonymous" ? ` (claimed ${identity.externalId})` : ""}</>;
}

const outcomeLabels = { answered: "answered", low_confidence: "low confidence", fallback: "fallback" } as const;

// The messages; with `conversationId`, an agent reply shows its outcome and the visitor's thumbs,
// and editors can "Improve answer" (a Q&A pair for the question it answered).
export function Transcript(props: { messages: Message[]; conversationId?: string }) {
  const { member } = useSession();
  const canEdit = atLeast(member.role, "editor") && !!props.conversationId;
  const [improving, setImproving] = useState<{ message: Message; question: string } | null>(null);
  const [done, setDone] = useState("");
  if (props.messages.length === 0) return <p class="empty">No messages.</p>;
  const questionBefore = (i: number) => {
    for (let j = i - 1; j >= 0; j--) if (props.messages[j].role === "user") return props.messages[j].content;
    return "";
  };
  return (
    <>
      {done && <p role="status" class="ok">{done}</p>}
      <ol class="transcript">
        {props.messages.map((m, i) => {
          const agentReply = m.role === "assistant" && !m.authorName;
          return (
            <li key={m.id} class={"msg " + (m.role === "user" ? "from-user" : m.authorName ? "from-team" : "from-agent")}>
              <div class="msg-head">
                <span class="who">{m.role === "user" ? "Visitor" : m.authorName ? `${m.authorName} (team)` : "Agent"}</span>
                <Time at={m.createdAt} />
              </div>
              <div class="msg-body">{m.content}</div>
              <SourceList sources={m.sources} />
              {m.blocks && <BlockList blocks={m.blocks} />}
              {agentReply && props.conversationId && (m.outcome || m.rating || canEdit) && (
                <div class="msg-actions">
                  {m.outcome && m.outcome !== "answered" && <Badge kind={m.outcome === "fallback" ? "unanswered" : "handed-off"}>{outcomeLabels[m.outcome]}</Badge>}
                  {m.rating === "up" && <Badge kind="trained">Rated helpful</Badge>}
                  {m.rating === "down" && <Badge kind="rated-low">Rated not helpful</Badge>}
                  {canEdit && (
                    <button type="button" class="link" onClick={() => setImproving({ message: m, question: questionBefore(i) })}>
                      Improve answer
                    </button>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
      {improving && (
        <AnswerDialog
          title="Improve answer"
          question={improving.question}
          onClose={() => setImproving(null)}
          onSave={async (question, answer) => {
            await api("POST", `/console/v1/conversations/${props.conversationId}/messages/${improving.message.id}/improve`, { question, answer });
            setDone(`Answer saved for “${question}”; the agent is being trained on it.`);
          }}
        />
      )}
    </>
  );
}

export function SourceList(props: { sources?: Citation[] }) {
  if (!props.sources?.length) return null;
  return (
    <div class="sources">
      <span class="muted">Sources:</span>
      <ul>
        {props.sources.map((s) => (
          <li>{safeUrl(s.url) ? <a href={safeUrl(s.url)!} target="_blank" rel="noopener noreferrer">{s.title || s.url}</a> : s.title || s.url || "Untitled"}</li>
        ))}
      </ul>
    </div>
  );
}

// Buttons, products and follow-ups of a reply (the chat's `blocks`).
export function BlockList({ blocks }: { blocks: Blocks }) {
  return (
    <>
      <SourceList sources={blocks.sources} />
      {!!blocks.buttons?.length && (
        <ul class="chips" aria-label="Buttons">
          {blocks.buttons.map((b) => <li>{safeUrl(b.url) ? <a class="chip" href={safeUrl(b.url)!} target="_blank" rel="noopener noreferrer">{b.label}</a> : b.label}</li>)}
        </ul>
      )}
      {!!blocks.products?.length && (
        <ul class="products" aria-label="Products">
          {blocks.products.map((p) => (
            <li class="product">
              {safeImageUrl(p.image) && <img src={safeImageUrl(p.image)!} alt="" width={48} height={48} referrerpolicy="no-referrer" />}
              {safeUrl(p.url) ? <a href={safeUrl(p.url)!} target="_blank" rel="noopener noreferrer">{p.name}</a> : p.name}
              {p.price !== undefined && <span>{p.currency ? `${p.price} ${p.currency}` : p.price}</span>}
              {p.available === false && <span class="muted">out of stock</span>}
            </li>
          ))}
        </ul>
      )}
      {!!blocks.followUps?.length && (
        <p class="muted">Suggested: {blocks.followUps.join(" · ")}</p>
      )}
    </>
  );
}
