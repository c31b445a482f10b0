// An agent's knowledge: websites (crawls), files (uploads), Notion pages, texts and Q&A pairs, and
// their training.
// While anything is pending or processing, or a crawl is queued or running, the sources and the
// crawls are read again every second; once training is done and no crawl runs, the polling stops.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, atLeast, get } from "../api";
import { useSession } from "../auth";
import { Badge, Confirm, ErrorText, Field, Loading, messageOf, Time, useLoad } from "../components";
import type { Crawl, Source, Training } from "../types";
import { safeUrl } from "../../shared/url";
import { AddWebsite, CrawlList, isActive } from "./websites";
import { DropZone, UploadButton, UploadList, useUploads } from "./uploads";
import { WorkspaceSection } from "./workspace";

interface Sources {
  data: Source[];
  training: Training;
  characters: { used: number; limit: number };
}

const POLL_MS = 1000;

export function KnowledgeTab(props: { agentId: string; onTrained(): void }) {
  const { member } = useSession();
  const canEdit = atLeast(member.role, "editor");
  const base = `/console/v1/agents/${props.agentId}/sources`;
  const { data, error, reload } = useLoad(() => get<Sources>(base), [base]);
  const crawlsPath = `/console/v1/agents/${props.agentId}/crawls`;
  const crawls = useLoad(() => get<{ data: Crawl[] }>(crawlsPath).then((r) => r.data), [crawlsPath]);
  const uploads = useUploads(props.agentId, reload);
  const [removing, setRemoving] = useState<Source | null>(null);
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);

  const [tick, setTick] = useState(0);
  // Tell the agent page when a training round ends, so the agent's own status follows; sources a
  // crawl, an upload or an import added may have trained between two readings.
  const seen = useRef<Training | null>(null);
  useEffect(() => {
    if (!data) return;
    const before = seen.current;
    if (before && data.training.done && (!before.done || before.trained !== data.training.trained)) props.onTrained();
    seen.current = data.training;
  }, [data]);
  const crawling = crawls.data?.some(isActive) ?? false;
  // The sources read beside the crawls' last reading may predate the crawl's last pages.
  const wasCrawling = useRef(false);
  useEffect(() => {
    if (wasCrawling.current && !crawling) reload();
    wasCrawling.current = crawling;
  }, [crawling]);
  useEffect(() => {
    if (!data || (data.training.done && !crawling)) return;
    const timer = setTimeout(() => Promise.all([reload(), crawling && crawls.reload()]).finally(() => setTick((t) => t + 1)), POLL_MS);
    return () => clearTimeout(timer);
  }, [data, crawls.data, tick]);

  // A crawl started, cancelled or refreshed: shown at once, in place or on top.
  function crawlChanged(crawl: Crawl) {
    crawls.setData((list = []) => (list.some((c) => c.id === crawl.id) ? list.map((c) => (c.id === crawl.id ? crawl : c)) : [crawl, ...list]));
    reload();
  }
  function closeAdd() {
    setAdding(false);
    addButton.current?.focus();
  }
  const [refreshError, setRefreshError] = useState("");
  async function refreshAll() {
    setRefreshError("");
    try {
      crawlChanged((await api<{ data: Crawl }>("POST", `/console/v1/agents/${props.agentId}/refresh`, {})).data);
    } catch (err) {
      setRefreshError(messageOf(err));
    }
  }
  const refreshingAll = crawls.data?.some((c) => c.kind === "refresh" && c.url === null && isActive(c)) ?? false;

  return (
    <>
      <h2 id="tab-heading">Knowledge</h2>
      {error && <ErrorText message={error} />}
      {!data && !error && <Loading />}
      {data && <TrainingSummary training={data.training} characters={data.characters} />}
      {canEdit && (
        <div class="actions">
          <button type="button" ref={addButton} class={adding ? "" : "primary"} aria-expanded={adding} aria-controls={adding ? "add-website-form" : undefined}
            onClick={() => (adding ? closeAdd() : setAdding(true))}>Add website</button>
          <UploadButton onFiles={uploads.add} />
          <span id="upload-hint" class="hint">PDF, Word (.docx), Markdown, HTML, text or CSV; or drop files on the sources list.</span>
        </div>
      )}
      {adding && <AddWebsite agentId={props.agentId} onClose={closeAdd} onStarted={(c) => { crawlChanged(c); closeAdd(); }} />}
      <UploadList items={uploads.items} onClear={uploads.clear} />
      <ErrorText message={crawls.error || refreshError} />
      {crawls.data && crawls.data.length > 0 && (
        <CrawlList crawls={crawls.data} canEdit={canEdit} onChanged={crawlChanged}
          refreshAll={canEdit && <button type="button" onClick={refreshAll} disabled={refreshingAll}>Refresh all websites now</button>} />
      )}
      <WorkspaceSection agentId={props.agentId} onImported={reload} />
      {canEdit && (
        <div class="two-col">
          <AddText base={base} onAdded={reload} />
          <AddQa base={base} onAdded={reload} />
        </div>
      )}
      {data && (
        <DropZone enabled={canEdit} onFiles={uploads.add}>
          <section aria-labelledby="sources-heading">
            <h3 id="sources-heading">Sources</h3>
            {canEdit && <p class="hint drop-hint">Drop files here to upload them.</p>}
            {data.data.length === 0 ? (
              <p class="empty">No sources yet. Add a website, upload files, or add a text or a Q&amp;A pair to teach the agent.</p>
            ) : (
              <table>
                <thead>
                  <tr><th scope="col">Source</th><th scope="col">Type</th><th scope="col">Characters</th><th scope="col">Status</th><th scope="col">Added</th>{canEdit && <th scope="col"><span class="sr-only">Actions</span></th>}</tr>
                </thead>
                <tbody>
                  {data.data.map((s) => (
                    <tr key={s.id}>
                      <td class="break">
                        <SourceLabel source={s} />
                        {s.type === "qa" && <div class="muted clamp">{s.answer}</div>}
                        {s.error && <div class="error-text">{s.error}</div>}
                      </td>
                      <td>{s.type === "qa" ? "Q&A" : s.type}</td>
                      <td class="num">{s.characters.toLocaleString()}</td>
                      <td><Badge kind={s.status}>{s.status}</Badge></td>
                      <td><Time at={s.createdAt} /></td>
                      {canEdit && (
                        <td><button type="button" class="link danger" aria-label={`Delete ${sourceName(s)}`} onClick={() => setRemoving(s)}>Delete</button></td>
                      )}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </DropZone>
      )}
      {removing && (
        <Confirm title="Delete this source?" body={`“${sourceName(removing)}” will be removed from the agent's knowledge.`} action="Delete source"
          onClose={() => setRemoving(null)}
          onConfirm={async () => { await api("DELETE", `${base}/${removing.id}`); await reload(); }} />
      )}
    </>
  );
}

const sourceName = (s: Source) => s.question ?? s.title ?? s.url ?? s.filename ?? "Untitled text";

// The source's name, and under it the page's address as a link (when it is a safe one) or the
// file's name.
function SourceLabel(props: { source: Source }) {
  const s = props.source;
  const href = safeUrl(s.url);
  const link = s.url && (href ? <a href={href} target="_blank" rel="noopener noreferrer">{s.url}</a> : s.url);
  const name = s.question ?? s.title;
  if (!name) return <div class="strong">{link || s.filename || "Untitled text"}</div>;
  return (
    <>
      <div class="strong">{name}</div>
      {link ? <div class="small">{link}</div> : s.filename && s.filename !== name && <div class="muted small">{s.filename}</div>}
    </>
  );
}

function TrainingSummary(props: { training: Training; characters: { used: number; limit: number } }) {
  const t = props.training;
  const busy = t.pending + t.processing;
  const text = t.total === 0
    ? "No sources to train."
    : busy > 0
      ? `Training: ${t.trained} of ${t.total} sources trained, ${t.processing} processing, ${t.pending} pending.`
      : `Training done: ${t.trained} of ${t.total} sources trained${t.failed ? `, ${t.failed} failed` : ""}.`;
  return (
    <div class="card training">
      <p role="status" id="training-status">{text}</p>
      <progress aria-labelledby="training-status" max={Math.max(t.total, 1)} value={t.total === 0 ? 0 : t.trained + t.failed} />
      <p class="muted">Training characters: {props.characters.used.toLocaleString()} of {props.characters.limit.toLocaleString()}</p>
    </div>
  );
}

function AddText(props: { base: string; onAdded(): void }) {
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  const [error, setError] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    try {
      await api("POST", props.base, { type: "text", title: title || null, content });
      setTitle("");
      setContent("");
      props.onAdded();
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="add-text">
      <h3 id="add-text">Add text</h3>
      <Field id="text-title" label="Title"><input id="text-title" value={title} onInput={(e) => setTitle(e.currentTarget.value)} /></Field>
      <Field id="text-content" label="Content"><textarea id="text-content" rows={5} value={content} onInput={(e) => setContent(e.currentTarget.value)} /></Field>
      <ErrorText message={error} />
      <button type="submit" class="primary">Add text</button>
    </form>
  );
}

function AddQa(props: { base: string; onAdded(): void }) {
  const [question, setQuestion] = useState("");
  const [answer, setAnswer] = useState("");
  const [error, setError] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    try {
      await api("POST", props.base, { type: "qa", question, answer });
      setQuestion("");
      setAnswer("");
      props.onAdded();
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="add-qa">
      <h3 id="add-qa">Add a Q&amp;A pair</h3>
      <Field id="qa-question" label="Question"><input id="qa-question" value={question} onInput={(e) => setQuestion(e.currentTarget.value)} /></Field>
      <Field id="qa-answer" label="Answer"><textarea id="qa-answer" rows={5} value={answer} onInput={(e) => setAnswer(e.currentTarget.value)} /></Field>
      <ErrorText message={error} />
      <button type="submit" class="primary">Add Q&amp;A</button>
    </form>
  );
}
