// An agent's webhooks (dashboard-added and API-subscribed): add, pause/resume, enable, remove,
// and each one's delivery history with "Retry".
import { useState } from "preact/hooks";
import { api, atLeast, get, query } from "../api";
import { useSession } from "../auth";
import { Badge, Confirm, ErrorText, Loading, messageOf, Pager, Time, useLoad, usePaged } from "../components";
import type { Delivery, Page, Webhook } from "../types";

const EVENTS = ["lead.created", "handoff.requested", "form.submitted", "booking.created", "live_chat.requested", "return.requested"];

export function WebhooksTab(props: { agentId: string }) {
  const { member } = useSession();
  const canManage = atLeast(member.role, "admin");
  const { data, error, reload } = useLoad(
    () => get<{ data: Webhook[] }>(`/console/v1/agents/${props.agentId}/webhooks`).then((r) => r.data),
    [props.agentId],
  );
  const [actionError, setActionError] = useState("");
  const [removing, setRemoving] = useState<Webhook | null>(null);
  const [history, setHistory] = useState<string | null>(null);

  async function act(method: string, path: string, body?: unknown) {
    setActionError("");
    try {
      await api(method, path, body);
      await reload();
    } catch (err) {
      setActionError(messageOf(err));
    }
  }

  return (
    <>
      <h2 id="tab-heading">Webhooks</h2>
      <p class="muted">Webhooks send this agent's events (new leads, hand-offs, live-chat requests …) to your other tools as they happen.</p>
      {canManage ? <AddWebhook agentId={props.agentId} onAdded={reload} /> : <p class="notice">Admins and owners add and change webhooks; your role is {member.role}.</p>}
      <section aria-labelledby="webhook-list">
        <h3 id="webhook-list">Webhooks of this agent</h3>
        {error && <ErrorText message={error} />}
        <ErrorText message={actionError} />
        {!data && !error && <Loading />}
        {data && data.length === 0 && <p class="empty">No webhooks yet.</p>}
        {data && data.length > 0 && (
          <table>
            <thead>
              <tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Added in</th><th scope="col">Status</th><th scope="col">Added</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
            </thead>
            <tbody>
              {data.map((w) => (
                <tr key={w.id}>
                  <td class="break">{w.url} <Badge kind="via" label={`Subscribed via ${w.source}`}>via {w.source}</Badge></td>
                  <td>{w.events.join(", ")}</td>
                  <td>{w.addedIn === "dashboard" ? "Dashboard" : "API"}</td>
                  <td>
                    <Badge kind={w.status}>{w.status}</Badge>
                    {w.paused && w.status === "disabled" && <> <Badge kind="paused">paused</Badge></>}
                    {w.disabledReason && <div class="muted small">{w.disabledReason}</div>}
                  </td>
                  <td><Time at={w.createdAt} /></td>
                  <td class="row-actions">
                    <button type="button" class="link" aria-expanded={history === w.id} aria-label={`Deliveries of ${w.url}`} onClick={() => setHistory(history === w.id ? null : w.id)}>Deliveries</button>
                    {canManage && (
                      <>
                        <button type="button" class="link" aria-label={`${w.paused ? "Resume" : "Pause"} ${w.url}`} onClick={() => act("PATCH", `/console/v1/webhooks/${w.id}`, { paused: !w.paused })}>{w.paused ? "Resume" : "Pause"}</button>
                        {w.status === "disabled" && <button type="button" class="link" aria-label={`Enable ${w.url}`} onClick={() => act("POST", `/console/v1/webhooks/${w.id}/enable`)}>Enable</button>}
                        <button type="button" class="link danger" aria-label={`Remove ${w.url}`} onClick={() => setRemoving(w)}>Remove</button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {history && data?.some((w) => w.id === history) && <Deliveries webhook={data.find((w) => w.id === history)!} canRetry={canManage} />}
      {removing && (
        <Confirm title="Remove this webhook?" body={`${removing.url} will stop receiving events, and its delivery history is deleted.`} action="Remove webhook"
          onClose={() => setRemoving(null)}
          onConfirm={async () => { await api("DELETE", `/console/v1/webhooks/${removing.id}`); if (history === removing.id) setHistory(null); await reload(); }} />
      )}
    </>
  );
}

function AddWebhook(props: { agentId: string; onAdded(): void }) {
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState("");
  const [secret, setSecret] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    try {
      const r = await api<{ data: Webhook }>("POST", `/console/v1/agents/${props.agentId}/webhooks`, { url, events });
      setSecret(r.data.secret ?? "");
      setUrl("");
      setEvents([]);
      props.onAdded();
    } catch (err) {
      setError(messageOf(err));
    }
  }
  const toggle = (ev: string, on: boolean) => setEvents(on ? [...events, ev] : events.filter((x) => x !== ev));
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="add-webhook">
      <h3 id="add-webhook">Add a webhook</h3>
      <div class="field">
        <label for="webhook-url">Webhook URL</label>
        <input id="webhook-url" type="url" placeholder="https://example.com/parley-events" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
      </div>
      <fieldset class="checks">
        <legend>Events</legend>
        {EVENTS.map((ev) => (
          <div class="check">
            <input type="checkbox" id={"ev-" + ev} checked={events.includes(ev)} onChange={(e) => toggle(ev, e.currentTarget.checked)} />
            <label for={"ev-" + ev}>{ev}</label>
          </div>
        ))}
      </fieldset>
      <ErrorText message={error} />
      <button type="submit" class="primary">Add webhook</button>
      {secret && (
        <div class="secret" role="status">
          <p><strong>Signing secret</strong> (shown this once; store it now to verify the signatures):</p>
          <code class="secret-value">{secret}</code>
          <button type="button" onClick={() => setSecret("")}>Done</button>
        </div>
      )}
    </form>
  );
}

function Deliveries(props: { webhook: Webhook; canRetry: boolean }) {
  const path = `/console/v1/webhooks/${props.webhook.id}/deliveries`;
  const [nonce, setNonce] = useState(0);
  const paged = usePaged((cursor) => get<Page<Delivery>>(path + query({ limit: 20, cursor })), [path, nonce]);
  const [error, setError] = useState("");
  async function retry(d: Delivery) {
    setError("");
    try {
      await api("POST", `${path}/${d.id}/retry`);
      setNonce(nonce + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  const page = paged.page;
  return (
    <section aria-labelledby="deliveries-heading" class="card">
      <h3 id="deliveries-heading">Deliveries to {props.webhook.url}</h3>
      <ErrorText message={error || paged.error} />
      {!page && !paged.error && <Loading />}
      {page && page.data.length === 0 && <p class="empty">Nothing has been sent to this webhook yet.</p>}
      {page && page.data.length > 0 && (
        <table>
          <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Last attempt</th><th scope="col">Attempts</th><th scope="col">Next attempt</th><th scope="col">Created</th>{props.canRetry && <th scope="col"><span class="sr-only">Actions</span></th>}</tr></thead>
          <tbody>
            {page.data.map((d) => {
              const last = d.attempts[d.attempts.length - 1];
              return (
                <tr key={d.id}>
                  <td>{d.event}</td>
                  <td><Badge kind={d.status}>{d.status}</Badge></td>
                  <td>{last ? `${last.statusCode ?? "no response"}${last.error ? ` — ${last.error}` : ""} (${last.durationMs} ms)` : <span class="muted">—</span>}</td>
                  <td class="num">{d.attempts.length}</td>
                  <td><Time at={d.nextAttemptAt} /></td>
                  <td><Time at={d.createdAt} /></td>
                  {props.canRetry && <td><button type="button" class="link" aria-label={`Retry delivery ${d.id}`} onClick={() => retry(d)}>Retry</button></td>}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {page && (page.hasMore || paged.hasPrev) && (
        <Pager label="Delivery pages" pageNumber={paged.pageNumber} hasPrev={paged.hasPrev} hasMore={page.hasMore} onPrev={paged.prev} onNext={paged.next} />
      )}
    </section>
  );
}
