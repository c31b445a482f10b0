// The agent's widget identity secret (docs/decisions/widget-identity.md): whether one is set, and
// a button that makes one or replaces it (after a confirmation). The new secret is shown once,
// with a copy button and the embed line; admins and owners only, as the API requires.
import { useState } from "preact/hooks";
import { api, atLeast } from "../api";
import { useSession } from "../auth";
import { Confirm, ErrorText, Time, messageOf } from "../components";
import type { Agent } from "../types";

interface MadeSecret {
  agentId: string;
  secret: string;
  createdAt: string;
  rotated: boolean;
}

export function IdentitySecretSection(props: { agent: Agent }) {
  const { member } = useSession();
  const canMake = atLeast(member.role, "admin");
  // Kept here, so that making a secret does not reload the settings form above (unsaved edits).
  const [state, setState] = useState(props.agent.identitySecret);
  const [made, setMade] = useState<MadeSecret | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState("");

  async function make() {
    setError("");
    setBusy(true);
    try {
      const r = await api<{ data: MadeSecret }>("POST", `/console/v1/agents/${encodeURIComponent(props.agent.id)}/identity-secret`, {});
      setMade(r.data);
      setCopied("");
      setState({ set: true, createdAt: r.data.createdAt });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  async function copy() {
    try {
      await navigator.clipboard.writeText(made!.secret);
      setCopied("Copied.");
    } catch {
      setCopied("Copying is not allowed here; select the secret and copy it.");
    }
  }

  return (
    <section class="identity" aria-labelledby="identity-heading">
      <h3 id="identity-heading">Visitor identity</h3>
      <p>
        Your server signs a signed-in visitor's user id with this secret, and the widget passes it
        (<code>data-user-id</code> and <code>data-user-hash</code>, or <code>Parley.identify</code>); the
        conversation is then bound to that contact.
      </p>
      <p role="status">
        {state?.set ? <>Identity secret set <Time at={state.createdAt} />.</> : "No identity secret yet: every visitor is anonymous."}
      </p>
      {made && (
        <div class="secret">
          <p><strong>Identity secret</strong> (shown this once; store it on your server now{made.rotated ? ", signatures made with the old one no longer verify" : ""}):</p>
          <p><code class="secret-value" aria-label="New identity secret">{made.secret}</code></p>
          <p class="hint">
            The hash is <code>hex(HMAC-SHA256(secret, userId))</code>, computed on your server; never put the secret in a page.
          </p>
          <div class="actions">
            <button type="button" onClick={copy}>Copy secret</button>
            <button type="button" onClick={() => setMade(null)}>Done</button>
            <span role="status" class="muted">{copied}</span>
          </div>
        </div>
      )}
      {canMake ? (
        <div class="actions">
          <button type="button" disabled={busy} onClick={() => (state?.set ? setConfirming(true) : make())}>
            {state?.set ? "Rotate identity secret" : "Generate identity secret"}
          </button>
        </div>
      ) : (
        <p class="notice">Admins and owners generate and rotate the identity secret.</p>
      )}
      <ErrorText message={error} />
      {confirming && (
        <Confirm title="Rotate the identity secret?" action="Rotate secret"
          body="A new secret replaces the current one at once: signatures made with the old secret stop verifying, so visitors stay anonymous until your server signs with the new one."
          onClose={() => setConfirming(false)}
          onConfirm={make} />
      )}
    </section>
  );
}
