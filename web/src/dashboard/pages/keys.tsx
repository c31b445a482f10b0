// The account's API keys: list, create (the key is shown once) and revoke (admins and owners).
import { useEffect, useState } from "preact/hooks";
import { api, atLeast, get } from "../api";
import { useSession } from "../auth";
import { Confirm, Dialog, ErrorText, Loading, messageOf, Time, useLoad } from "../components";
import type { ApiKey } from "../types";

const SCOPES = ["agents:read", "chat", "conversations:read", "leads:read", "contacts:write", "sources:read", "sources:write", "webhooks:write"];

export function KeysPage() {
  const { member } = useSession();
  const canManage = atLeast(member.role, "admin");
  const { data, error, reload } = useLoad(() => get<{ data: ApiKey[] }>("/console/v1/keys").then((r) => r.data), []);
  const [created, setCreated] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  useEffect(() => void (document.title = "API keys · Parley"), []);

  return (
    <>
      <h1>API keys</h1>
      <p class="muted">Keys let your own software call the Parley API (<code>Authorization: Bearer svc_live_…</code>).</p>
      {canManage ? (
        <CreateKey onCreated={(k) => { setCreated(k); reload(); }} />
      ) : (
        <p class="notice">Admins and owners create and revoke keys; your role is {member.role}.</p>
      )}
      <section aria-labelledby="keys-heading">
        <h2 id="keys-heading">Active keys</h2>
        {error && <ErrorText message={error} />}
        {!data && !error && <Loading />}
        {data && data.length === 0 && <p class="empty">No active keys.</p>}
        {data && data.length > 0 && (
          <table>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Scopes</th><th scope="col">Created</th><th scope="col">Last used</th>{canManage && <th scope="col"><span class="sr-only">Actions</span></th>}</tr>
            </thead>
            <tbody>
              {data.map((k) => (
                <tr key={k.id ?? k.prefix + k.createdAt}>
                  <td class="strong">{k.name}</td>
                  <td><code>{k.prefix}…</code></td>
                  <td>{k.allScopes ? "All scopes" : k.scopes.join(", ")}</td>
                  <td><Time at={k.createdAt} /></td>
                  <td>{k.lastUsedAt ? <Time at={k.lastUsedAt} /> : <span class="muted">Never</span>}</td>
                  {canManage && (
                    <td><button type="button" class="link danger" aria-label={`Revoke ${k.name}`} disabled={!k.id} onClick={() => setRevoking(k)}>Revoke</button></td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {created && (
        <Dialog title="Your new API key" onClose={() => setCreated(null)}>
          <NewKey apiKey={created} onClose={() => setCreated(null)} />
        </Dialog>
      )}
      {revoking && (
        <Confirm title={`Revoke “${revoking.name}”?`} action="Revoke key"
          body="Requests with this key will be refused at once, and the webhooks it subscribed are deleted. This cannot be undone."
          onClose={() => setRevoking(null)}
          onConfirm={async () => { await api("DELETE", `/console/v1/keys/${revoking.id}`); await reload(); }} />
      )}
    </>
  );
}

function NewKey(props: { apiKey: ApiKey; onClose(): void }) {
  const [copied, setCopied] = useState("");
  async function copy() {
    try {
      await navigator.clipboard.writeText(props.apiKey.key!);
      setCopied("Copied.");
    } catch {
      setCopied("Copying is not allowed here; select the key and copy it.");
    }
  }
  return (
    <>
      <p>Copy the key <strong>{props.apiKey.name}</strong> now and keep it safe: <strong>it will not be shown again.</strong></p>
      <p><code class="secret-value" aria-label="New API key">{props.apiKey.key}</code></p>
      <div class="actions">
        <button type="button" onClick={copy}>Copy key</button>
        <button type="button" class="primary" onClick={props.onClose}>Close</button>
        <span role="status" class="muted">{copied}</span>
      </div>
    </>
  );
}

function CreateKey(props: { onCreated(key: ApiKey): void }) {
  const [name, setName] = useState("");
  const [all, setAll] = useState(true);
  const [scopes, setScopes] = useState<string[]>([]);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    setBusy(true);
    try {
      const r = await api<{ data: ApiKey }>("POST", "/console/v1/keys", all ? { name, allScopes: true } : { name, scopes });
      setName("");
      setScopes([]);
      props.onCreated(r.data);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <form class="card" onSubmit={submit} noValidate aria-labelledby="create-key">
      <h2 id="create-key">Create a key</h2>
      <div class="field">
        <label for="key-name">Key name</label>
        <input id="key-name" value={name} maxLength={100} placeholder="e.g. CRM sync" onInput={(e) => setName(e.currentTarget.value)} />
      </div>
      <fieldset>
        <legend>Scopes</legend>
        <div class="check">
          <input type="radio" id="scopes-all" name="scope-mode" checked={all} onChange={() => setAll(true)} />
          <label for="scopes-all">All scopes (future ones included)</label>
        </div>
        <div class="check">
          <input type="radio" id="scopes-chosen" name="scope-mode" checked={!all} onChange={() => setAll(false)} />
          <label for="scopes-chosen">Only the scopes I choose</label>
        </div>
        {!all && (
          <div class="checks indent">
            {SCOPES.map((s) => (
              <div class="check">
                <input type="checkbox" id={"scope-" + s} checked={scopes.includes(s)}
                  onChange={(e) => setScopes(e.currentTarget.checked ? [...scopes, s] : scopes.filter((x) => x !== s))} />
                <label for={"scope-" + s}><code>{s}</code></label>
              </div>
            ))}
          </div>
        )}
      </fieldset>
      <ErrorText message={error} />
      <button type="submit" class="primary" disabled={busy}>Create key</button>
    </form>
  );
}
