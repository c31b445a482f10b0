// The audit log (owners and admins): who changed what and when, newest first, with filters by
// person, action, kind of target and days, a page at a time. Each change shows its fields' old
// and new values as the server recorded them (secrets arrive as "[redacted]").
import { useEffect, useState } from "preact/hooks";
import { atLeast, get, query } from "../api";
import { useSession } from "../auth";
import { ErrorText, Loading, Pager, Time, useLoad, usePaged } from "../components";
import type { AuditEntry, Member, Page } from "../types";

const PAGE_SIZE = 50;
const TARGETS = ["account", "agent", "source", "key", "member", "webhook", "conversation", "workspace", "crawl"];

interface Filters {
  actor: string;
  action: string;
  targetType: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = { actor: "", action: "", targetType: "", from: "", to: "" };

const shown = (v: unknown) => (v === null || v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));

function Changes(props: { entry: AuditEntry }) {
  const e = props.entry;
  if (e.changes.length === 0) {
    const q = e.details && typeof e.details.query === "string" ? e.details.query : "";
    return q ? <code>{q}</code> : <span class="muted">—</span>;
  }
  return (
    <ul class="changes">
      {e.changes.map((c) => (
        <li key={c.field}>
          <code>{c.field}</code>: <span class="old">{shown(c.old)}</span> → <span class="new">{shown(c.new)}</span>
        </li>
      ))}
    </ul>
  );
}

function actorText(e: AuditEntry) {
  if (e.actor.type === "key") return `API key “${e.actor.name}”`;
  return e.actor.name;
}

export function AuditPage() {
  const { member } = useSession();
  const allowed = atLeast(member.role, "admin");
  const [typed, setTyped] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  useEffect(() => void (document.title = "Audit log · Parley"), []);
  const members = useLoad(
    () => (allowed ? get<{ data: Member[] }>("/console/v1/members").then((r) => r.data) : Promise.resolve([] as Member[])),
    [allowed],
  );
  const paged = usePaged(
    (cursor) =>
      allowed
        ? get<Page<AuditEntry>>("/console/v1/audit" + query({ limit: PAGE_SIZE, cursor, ...filters }))
        : Promise.resolve({ data: [], hasMore: false, nextCursor: null }),
    [allowed, filters.actor, filters.action, filters.targetType, filters.from, filters.to],
  );
  const page = paged.page;
  const set = (k: keyof Filters) => (e: { currentTarget: { value: string } }) => setTyped({ ...typed, [k]: e.currentTarget.value });
  const filtered = Object.values(filters).some((v) => v !== "");

  if (!allowed) {
    return (
      <>
        <h1>Audit log</h1>
        <p>Only owners and admins can read the audit log.</p>
      </>
    );
  }
  return (
    <>
      <h1>Audit log</h1>
      <p class="muted">Every change made in the dashboard, through the API or by the server's operator, newest first.</p>
      <form role="search" aria-label="Filter the audit log" class="inline" onSubmit={(e) => { e.preventDefault(); setFilters({ ...typed, action: typed.action.trim() }); }}>
        <label for="audit-actor">Person or key</label>
        <select id="audit-actor" value={typed.actor} onChange={set("actor")}>
          <option value="">Anyone</option>
          {(members.data ?? []).map((m) => <option key={m.id} value={m.id}>{m.name ? `${m.name} (${m.email})` : m.email}</option>)}
        </select>
        <label for="audit-action">Action</label>
        <input id="audit-action" type="text" value={typed.action} maxLength={200} placeholder="agent.update or agent." onInput={set("action")} />
        <label for="audit-target">Changed</label>
        <select id="audit-target" value={typed.targetType} onChange={set("targetType")}>
          <option value="">Anything</option>
          {TARGETS.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <label for="audit-from">From</label>
        <input id="audit-from" type="date" value={typed.from} onInput={set("from")} />
        <label for="audit-to">To</label>
        <input id="audit-to" type="date" value={typed.to} onInput={set("to")} />
        <button type="submit">Apply filters</button>
        {filtered && <button type="button" class="link" onClick={() => { setTyped(NO_FILTERS); setFilters(NO_FILTERS); }}>Clear filters</button>}
      </form>
      {paged.error && <ErrorText message={paged.error} />}
      {!page && !paged.error && <Loading />}
      {page && page.data.length === 0 && <p class="empty">{filtered ? "No change matches these filters." : "No changes recorded yet."}</p>}
      {page && page.data.length > 0 && (
        <table aria-label="Audit log entries">
          <thead>
            <tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Target</th><th scope="col">Changes</th><th scope="col">Address</th></tr>
          </thead>
          <tbody>
            {page.data.map((e) => (
              <tr key={e.id}>
                <td><Time at={e.createdAt} /></td>
                <td>{actorText(e)}</td>
                <td><code>{e.action}</code></td>
                <td>{e.target.type}{e.target.id ? <> <code>{e.target.id}</code></> : null}</td>
                <td><Changes entry={e} /></td>
                <td>{e.address ?? <span class="muted">—</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page && (page.hasMore || paged.hasPrev) && (
        <Pager label="Audit log pages" pageNumber={paged.pageNumber} hasPrev={paged.hasPrev} hasMore={page.hasMore} onPrev={paged.prev} onNext={paged.next} />
      )}
    </>
  );
}
