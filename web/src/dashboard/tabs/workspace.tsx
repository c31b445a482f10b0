// The agent's Notion workspace in Knowledge: connecting it with an integration token (admins and
// owners; the token is sent once and never shown again), the pages shared with the integration to
// pick and import (editors), the imports with their status, read again every second while one is
// queued or running, and "Refresh now" for one page or all of them.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, atLeast, get } from "../api";
import { useSession } from "../auth";
import { Badge, Confirm, ErrorText, Field, Loading, messageOf, Time, useLoad } from "../components";
import { safeUrl } from "../../shared/url";

interface WorkspaceStatus {
  connected: boolean;
  workspaceName: string | null;
  connectedAt: string | null;
}

interface WorkspacePage {
  id: string;
  title: string;
  url: string;
  lastEditedAt: string;
  imported: boolean;
}

interface WorkspaceImport {
  pageId: string;
  title: string | null;
  url: string | null;
  status: "queued" | "running" | "done" | "failed";
  outcome: "created" | "updated" | "unchanged" | "removed" | "failed" | null;
  sourceId: string | null;
  error: { code: string; message: string } | null;
  requestedAt: string;
  finishedAt: string | null;
}

const POLL_MS = 1000;
const BADGE = { queued: "pending", running: "processing", done: "trained", failed: "failed" } as const;
const active = (i: WorkspaceImport) => i.status === "queued" || i.status === "running";
const pageName = (i: { title: string | null }) => i.title || "Untitled";

export function WorkspaceSection(props: { agentId: string; onImported(): void }) {
  const { member } = useSession();
  const canConnect = atLeast(member.role, "admin");
  const canImport = atLeast(member.role, "editor");
  const base = `/console/v1/agents/${props.agentId}/workspace`;
  const status = useLoad(() => get<{ data: WorkspaceStatus }>(base).then((r) => r.data), [base]);
  const imports = useLoad(() => get<{ data: WorkspaceImport[] }>(base + "/imports").then((r) => r.data), [base]);
  const [picking, setPicking] = useState(false);
  const [disconnecting, setDisconnecting] = useState(false);
  const [error, setError] = useState("");

  // While a page is queued or running, read the imports (and the sources) again every second.
  const [tick, setTick] = useState(0);
  const running = imports.data?.some(active) ?? false;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (wasRunning.current || running) props.onImported();
    wasRunning.current = running;
    if (!running) return;
    const timer = setTimeout(() => imports.reload().finally(() => setTick((t) => t + 1)), POLL_MS);
    return () => clearTimeout(timer);
  }, [imports.data, tick]);

  async function queue(path: string, body: unknown) {
    setError("");
    try {
      await api("POST", base + path, body);
      await imports.reload();
    } catch (err) {
      setError(messageOf(err));
    }
  }

  const st = status.data;
  const rows = imports.data ?? [];
  return (
    <section aria-labelledby="workspace-heading">
      <div class="title-row">
        <h3 id="workspace-heading">Notion workspace</h3>
        {st?.connected && canImport && !picking && <button type="button" onClick={() => setPicking(true)}>Choose pages</button>}
        {st?.connected && canImport && rows.some((r) => r.sourceId) && (
          <button type="button" onClick={() => queue("/refresh", {})} disabled={running}>Refresh all workspace pages now</button>
        )}
      </div>
      <ErrorText message={status.error || imports.error || error} />
      {!st && !status.error && <Loading />}
      {st && !st.connected && (canConnect
        ? <Connect base={base} onConnected={(s) => status.setData(s)} />
        : <p class="muted">No Notion workspace is connected. An admin or the owner of the account can connect one.</p>)}
      {st?.connected && (
        <p>
          Connected to <span class="strong">{st.workspaceName ?? "a Notion workspace"}</span> since <Time at={st.connectedAt} />.{" "}
          {canConnect && <button type="button" class="link danger" onClick={() => setDisconnecting(true)}>Disconnect Notion</button>}
        </p>
      )}
      {picking && (
        <PagePicker base={base} onClose={() => setPicking(false)}
          onQueued={(queued) => { imports.setData((list = []) => [...queued, ...list.filter((r) => !queued.some((q) => q.pageId === r.pageId))]); setPicking(false); }} />
      )}
      {rows.length > 0 && (
        <table>
          <caption>Imported pages</caption>
          <thead>
            <tr><th scope="col">Page</th><th scope="col">Status</th><th scope="col">Outcome</th><th scope="col">Requested</th>{canImport && <th scope="col"><span class="sr-only">Actions</span></th>}</tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.pageId}>
                <td class="break">
                  <div class="strong">{safeUrl(r.url) ? <a href={safeUrl(r.url)!} target="_blank" rel="noopener noreferrer">{pageName(r)}</a> : pageName(r)}</div>
                  {r.error && <div class="error-text">{r.error.message}</div>}
                </td>
                <td><Badge kind={BADGE[r.status]}>{r.status}</Badge></td>
                <td>{r.outcome ?? <span class="muted">—</span>}</td>
                <td><Time at={r.requestedAt} /></td>
                {canImport && (
                  <td>
                    {!active(r) && st?.connected && (
                      <button type="button" class="link" aria-label={`Refresh now ${pageName(r)}`} onClick={() => queue("/imports", { pageIds: [r.pageId] })}>Refresh now</button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {disconnecting && (
        <Confirm title="Disconnect Notion?" body="The integration token is forgotten. Pages imported already stay in the agent's knowledge." action="Disconnect"
          onClose={() => setDisconnecting(false)}
          onConfirm={async () => { status.setData((await api<{ data: WorkspaceStatus }>("DELETE", base)).data); }} />
      )}
    </section>
  );
}

function Connect(props: { base: string; onConnected(status: WorkspaceStatus): void }) {
  const [tokenText, setTokenText] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    setBusy(true);
    try {
      const r = await api<{ data: WorkspaceStatus }>("PUT", props.base, { token: tokenText.trim() });
      setTokenText("");
      props.onConnected(r.data);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="card" onSubmit={submit} noValidate aria-label="Connect Notion">
      <Field id="notion-token" label="Integration token"
        hint="The secret of an internal integration with Read content (Notion: Settings, Connections, Develop or manage integrations); share the pages with it in Notion. It is stored encrypted and never shown again.">
        <input id="notion-token" type="password" autocomplete="off" spellcheck={false} value={tokenText} onInput={(e) => setTokenText(e.currentTarget.value)}
          aria-describedby={"notion-token-hint" + (error ? " notion-error" : "")} aria-invalid={error ? true : undefined} />
      </Field>
      <ErrorText id="notion-error" message={error} />
      <button type="submit" class="primary" disabled={busy || !tokenText.trim()}>Connect Notion</button>
    </form>
  );
}

function PagePicker(props: { base: string; onClose(): void; onQueued(rows: WorkspaceImport[]): void }) {
  const { data, error } = useLoad(() => get<{ data: WorkspacePage[]; truncated: boolean }>(props.base + "/pages"), [props.base]);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [sendError, setSendError] = useState("");
  const [busy, setBusy] = useState(false);
  const toggle = (id: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(id);
    else next.delete(id);
    setChosen(next);
  };
  async function submit(e: Event) {
    e.preventDefault();
    setSendError("");
    setBusy(true);
    try {
      const r = await api<{ data: WorkspaceImport[] }>("POST", props.base + "/imports", { pageIds: [...chosen] });
      props.onQueued(r.data);
    } catch (err) {
      setSendError(messageOf(err));
      setBusy(false);
    }
  }
  return (
    <form class="card" onSubmit={submit} noValidate aria-label="Choose pages to import">
      <ErrorText message={error} />
      {!data && !error && <Loading />}
      {data && data.data.length === 0 && <p class="empty">No page is shared with the integration yet. Share pages with it in Notion, then choose them here.</p>}
      {data && data.data.length > 0 && (
        <fieldset class="pages">
          <legend>Pages shared with the integration</legend>
          {data.data.map((p) => (
            <div class="check" key={p.id}>
              <input type="checkbox" id={`page-${p.id}`} checked={chosen.has(p.id)} onChange={(e) => toggle(p.id, e.currentTarget.checked)} />
              <label for={`page-${p.id}`}>{p.title || "Untitled"}{p.imported && <span class="muted"> (imported)</span>}</label>
            </div>
          ))}
          {data.truncated && <p class="hint">The first 1,000 pages are listed.</p>}
        </fieldset>
      )}
      <ErrorText message={sendError} />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy || chosen.size === 0}>Import selected pages</button>
        <button type="button" onClick={props.onClose}>Close</button>
      </div>
    </form>
  );
}
