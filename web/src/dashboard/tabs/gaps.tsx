// An agent's knowledge gaps: the questions it could not answer well, grouped by meaning, with how
// often and where they were asked and links to their conversations. "Answer this" opens the
// question with an answer box; saving adds a Q&A pair that the agent is trained on and marks the
// group resolved. The same dialog serves "Improve answer" in a transcript.
import { useState } from "preact/hooks";
import { api, atLeast, get, query } from "../api";
import { useSession } from "../auth";
import { Badge, Dialog, ErrorText, Field, Loading, Pager, Time, messageOf, usePaged } from "../components";
import { href } from "../router";
import type { GapDetail, GapGroup, Page } from "../types";

const PAGE_SIZE = 20;

// The question (editable) and an answer box; `save` sends both.
export function AnswerDialog(props: {
  title: string;
  question: string;
  onSave(question: string, answer: string): Promise<void>;
  onClose(): void;
}) {
  const [question, setQuestion] = useState(props.question);
  const [answer, setAnswer] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      await props.onSave(question.trim(), answer.trim());
      props.onClose();
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }
  return (
    <Dialog title={props.title} onClose={props.onClose} wide>
      <form onSubmit={submit}>
        <Field id="gap-question" label="Question" hint="Visitors asking this, in any wording, get the answer.">
          <input id="gap-question" value={question} maxLength={200} required aria-describedby="gap-question-hint" onInput={(e) => setQuestion(e.currentTarget.value)} />
        </Field>
        <Field id="gap-answer" label="Answer">
          <textarea id="gap-answer" rows={5} required value={answer} onInput={(e) => setAnswer(e.currentTarget.value)} />
        </Field>
        <ErrorText message={error} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy || !answer.trim() || !question.trim()}>Save answer</button>
          <button type="button" onClick={props.onClose}>Cancel</button>
        </div>
      </form>
    </Dialog>
  );
}

export function GapsTab(props: { agentId: string }) {
  const { member } = useSession();
  const canEdit = atLeast(member.role, "editor");
  const [status, setStatus] = useState<"open" | "resolved">("open");
  const [answering, setAnswering] = useState<GapGroup | null>(null);
  const [done, setDone] = useState("");
  const [stamp, setStamp] = useState(0);
  const paged = usePaged(
    (cursor) => get<Page<GapGroup>>(`/console/v1/agents/${props.agentId}/gaps` + query({ limit: PAGE_SIZE, cursor, status })),
    [props.agentId, status, stamp],
  );
  const page = paged.page;
  const save = async (gap: GapGroup, question: string, answer: string) => {
    await api<{ gap: GapDetail | null }>("POST", `/console/v1/agents/${props.agentId}/gaps/${gap.id}/answer`, { question, answer });
    setDone(`Answer saved for “${question}”; the agent is being trained on it.`);
    setStamp((n) => n + 1);
  };

  return (
    <>
      <h2 id="tab-heading">Gaps</h2>
      <p class="muted">Questions the agent answered with its fallback or with low confidence, or that visitors rated low, grouped by meaning.</p>
      <div class="inline" role="group" aria-label="Show gaps">
        <button type="button" aria-pressed={status === "open"} onClick={() => setStatus("open")}>Open</button>
        <button type="button" aria-pressed={status === "resolved"} onClick={() => setStatus("resolved")}>Resolved</button>
      </div>
      {done && <p role="status" class="ok">{done}</p>}
      {paged.error && <ErrorText message={paged.error} />}
      {!page && !paged.error && <Loading />}
      {page && page.data.length === 0 && <p class="empty">{status === "open" ? "No open gaps: the agent answered every question." : "No resolved gaps yet."}</p>}
      {page && page.data.length > 0 && (
        <table>
          <caption class="sr-only">{status === "open" ? "Open gaps" : "Resolved gaps"}</caption>
          <thead>
            <tr><th scope="col">Question</th><th scope="col">Asked</th><th scope="col">Channels</th><th scope="col">First asked</th><th scope="col">Last asked</th><th scope="col">Conversations</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
          </thead>
          <tbody>
            {page.data.map((g) => (
              <tr key={g.id}>
                <td>{g.question}{g.resolved && <> <Badge kind="trained">resolved</Badge></>}</td>
                <td class="num">{g.count}</td>
                <td>{g.channels.join(", ")}</td>
                <td><Time at={g.firstAskedAt} /></td>
                <td><Time at={g.lastAskedAt} /></td>
                <td><GapConversations agentId={props.agentId} gapId={g.id} /></td>
                <td>{canEdit && <button type="button" aria-label={`Answer this: ${g.question}`} onClick={() => setAnswering(g)}>Answer this</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page && (page.hasMore || paged.hasPrev) && (
        <Pager label="Gap pages" pageNumber={paged.pageNumber} hasPrev={paged.hasPrev} hasMore={page.hasMore} onPrev={paged.prev} onNext={paged.next} />
      )}
      {answering && (
        <AnswerDialog title="Answer this" question={answering.question} onClose={() => setAnswering(null)} onSave={(q, a) => save(answering, q, a)} />
      )}
    </>
  );
}

// Links to the transcripts of a group's questions, read when asked for.
function GapConversations(props: { agentId: string; gapId: string }) {
  const [detail, setDetail] = useState<GapDetail | null>(null);
  const [error, setError] = useState("");
  if (!detail)
    return (
      <>
        <button type="button" class="link" onClick={() => get<{ data: GapDetail }>(`/console/v1/agents/${props.agentId}/gaps/${props.gapId}`).then((r) => setDetail(r.data), (e) => setError(messageOf(e)))}>
          Show conversations
        </button>
        <ErrorText message={error} />
      </>
    );
  return (
    <ul class="plain">
      {detail.conversations.map((c) => (
        <li key={c.messageId}><a href={href("agents", props.agentId, "conversations", c.conversationId)}>“{c.question}”</a> <span class="muted">({c.channel})</span></li>
      ))}
    </ul>
  );
}
