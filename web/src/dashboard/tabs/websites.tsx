// Websites in Knowledge: the "Add website" form that starts a crawl, and the crawls with their
// live counters, "Cancel" while one runs and "Refresh now" per crawled site. The Knowledge tab
// owns the list and reads it again every second while a crawl is queued or running.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { Badge, ErrorText, Field, messageOf, Time } from "../components";
import type { Crawl } from "../types";
import { safeUrl } from "../../shared/url";

export const isActive = (c: Crawl) => c.status === "queued" || c.status === "running";

const lines = (v: string) => v.split("\n").map((l) => l.trim()).filter(Boolean);

// The form's fields by the API's field names, so the API's message ('url', 'maxPages', …) marks one.
const FIELDS = ["url", "maxPages", "maxDepth", "include", "exclude"] as const;
type FieldName = (typeof FIELDS)[number];

export function AddWebsite(props: { agentId: string; onStarted(crawl: Crawl): void; onClose(): void }) {
  const [form, setForm] = useState<Record<FieldName, string>>({ url: "", maxPages: "", maxDepth: "", include: "", exclude: "" });
  const [error, setError] = useState<{ message: string; field?: FieldName }>({ message: "" });
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => formRef.current?.querySelector<HTMLElement>("#crawl-url")?.focus(), []);

  const fail = (message: string, field?: FieldName) => {
    setError({ message, field });
    if (field) formRef.current?.querySelector<HTMLElement>("#crawl-" + field)?.focus();
  };
  const bind = (name: FieldName, hinted: boolean) => ({
    id: "crawl-" + name,
    value: form[name],
    onInput: (e: Event) => setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value }),
    "aria-invalid": error.field === name ? true : undefined,
    "aria-describedby": [hinted && `crawl-${name}-hint`, error.field === name && "crawl-error"].filter(Boolean).join(" ") || undefined,
  });

  async function submit(e: Event) {
    e.preventDefault();
    setError({ message: "" });
    const url = form.url.trim();
    if (!url) return fail("Enter the address of the website, like https://www.example.com/.", "url");
    const body: Record<string, unknown> = { url };
    for (const [name, label] of [["maxPages", "Maximum pages"], ["maxDepth", "Maximum depth"]] as const) {
      const v = form[name].trim();
      if (!v) continue;
      if (!/^\d+$/.test(v)) return fail(`${label} must be a whole number.`, name);
      body[name] = Number(v);
    }
    if (lines(form.include).length) body.include = lines(form.include);
    if (lines(form.exclude).length) body.exclude = lines(form.exclude);
    setBusy(true);
    try {
      const r = await api<{ data: Crawl }>("POST", `/console/v1/agents/${props.agentId}/crawls`, body);
      props.onStarted(r.data);
    } catch (err) {
      const message = messageOf(err);
      const named = /'([A-Za-z]+)'/.exec(message)?.[1] as FieldName | undefined;
      fail(message, named && FIELDS.includes(named) ? named : undefined);
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} id="add-website-form" class="card" onSubmit={submit} noValidate aria-labelledby="add-website-heading">
      <h3 id="add-website-heading">Add a website</h3>
      <p class="muted">Parley reads the pages of the site, following its links and sitemap, as the site's robots.txt allows.</p>
      <Field id="crawl-url" label="Website address" hint="A page or a sitemap; pages under this address are read.">
        <input {...bind("url", true)} type="url" inputMode="url" placeholder="https://www.example.com/" autocomplete="url" />
      </Field>
      <div class="two-col">
        <Field id="crawl-maxPages" label="Maximum pages" hint="Empty: your plan's limit.">
          <input {...bind("maxPages", true)} inputMode="numeric" />
        </Field>
        <Field id="crawl-maxDepth" label="Maximum depth" hint="Links away from the start page; empty: the default.">
          <input {...bind("maxDepth", true)} inputMode="numeric" />
        </Field>
        <Field id="crawl-include" label="Only paths like" hint="One pattern per line, like /docs/ or /help/*; empty: every page.">
          <textarea {...bind("include", true)} rows={2} class="mono" spellcheck={false} />
        </Field>
        <Field id="crawl-exclude" label="Skip paths like" hint="One pattern per line, like /login or /*.zip$.">
          <textarea {...bind("exclude", true)} rows={2} class="mono" spellcheck={false} />
        </Field>
      </div>
      <ErrorText id="crawl-error" message={error.message} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>Start</button>
        <button type="button" onClick={props.onClose}>Close</button>
      </div>
    </form>
  );
}

const STATUS_TEXT: Record<Crawl["status"], string> = { queued: "queued", running: "running", done: "done", cancelled: "cancelled", failed: "stopped" };
const BADGE: Record<Crawl["status"], string> = { queued: "pending", running: "processing", done: "trained", cancelled: "", failed: "failed" };

const siteName = (c: Crawl) => c.url ?? "All websites";
// "crawl of https://…", "refresh of all websites": what a job is, for names and announcements.
const jobName = (c: Crawl) => `${c.kind} of ${c.url ?? "all websites"}`;

// One sentence for screen readers when a crawl starts or ends (not at every counter change).
function announcement(c: Crawl | undefined): string {
  if (!c) return "";
  const what = jobName(c);
  return `${what[0].toUpperCase()}${what.slice(1)}: ${STATUS_TEXT[c.status]}.`;
}

export function CrawlList(props: { crawls: Crawl[]; canEdit: boolean; onChanged(crawl: Crawl): void; refreshAll?: ComponentChildren }) {
  const [error, setError] = useState("");
  const [busy, setBusy] = useState("");
  // "Refresh now" on the newest crawl of each address only.
  const newest = new Set<string>();
  const seen = new Set<string>();
  for (const c of props.crawls) {
    if (c.kind === "crawl" && c.url && !seen.has(c.url)) {
      seen.add(c.url);
      newest.add(c.id);
    }
  }
  const refreshing = (url: string) => props.crawls.some((c) => c.kind === "refresh" && isActive(c) && (c.url === url || c.url === null));

  async function act(key: string, run: () => Promise<{ data: Crawl }>) {
    setError("");
    setBusy(key);
    try {
      props.onChanged((await run()).data);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy("");
    }
  }

  return (
    <section aria-labelledby="crawls-heading">
      <div class="title-row">
        <h3 id="crawls-heading">Websites</h3>
        {props.refreshAll}
      </div>
      <p role="status" class="sr-only">{announcement(props.crawls[0])}</p>
      <ErrorText message={error} />
      <table>
        <thead>
          <tr><th scope="col">Website</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Started</th>{props.canEdit && <th scope="col"><span class="sr-only">Actions</span></th>}</tr>
        </thead>
        <tbody>
          {props.crawls.map((c) => (
            <tr key={c.id}>
              <td class="break">
                <div class="strong">{c.url && safeUrl(c.url) ? <a href={safeUrl(c.url)!} target="_blank" rel="noopener noreferrer">{c.url}</a> : siteName(c)}</div>
                <div class="muted small">{c.kind === "refresh" ? "Refresh" : "Crawl"}</div>
                {c.error && <div class="error-text">{c.error.message}</div>}
              </td>
              <td><Badge kind={BADGE[c.status]}>{STATUS_TEXT[c.status]}</Badge></td>
              <td><Counters crawl={c} /></td>
              <td><Time at={c.createdAt} /></td>
              {props.canEdit && (
                <td class="row-actions">
                  {isActive(c) && (
                    <button type="button" class="link" aria-label={`Cancel the ${jobName(c)}`} disabled={busy === c.id}
                      onClick={() => act(c.id, () => api("POST", `/console/v1/crawls/${c.id}/cancel`))}>Cancel</button>
                  )}
                  {!isActive(c) && newest.has(c.id) && (
                    <button type="button" class="link" aria-label={`Refresh now ${c.url}`} disabled={busy === c.id || refreshing(c.url!)}
                      onClick={() => act(c.id, () => api("POST", `/console/v1/agents/${c.agentId}/refresh`, { url: c.url }))}>Refresh now</button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Counters(props: { crawl: Crawl }) {
  const p = props.crawl.progress;
  const items: [string, number][] = [["found", p.found], ["fetched", p.fetched], ["skipped", p.skipped], ["failed", p.failed]];
  if (props.crawl.kind === "refresh") items.push(["unchanged", p.unchanged], ["removed", p.removed]);
  return (
    <ul class="counts">
      {items.map(([label, n]) => <li key={label}><span class="num">{n.toLocaleString()}</span> {label}</li>)}
      <li><span class="num">{p.characters.toLocaleString()}</span> characters</li>
    </ul>
  );
}
