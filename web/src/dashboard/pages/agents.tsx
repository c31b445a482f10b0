// The account's agents, and creating one (editors and above).
import { useEffect, useState } from "preact/hooks";
import { api, atLeast, get } from "../api";
import { useSession } from "../auth";
import { Badge, ErrorText, Loading, messageOf, Time, useLoad } from "../components";
import { href } from "../router";
import type { Agent } from "../types";

export function AgentsPage() {
  const { member } = useSession();
  const { data, error } = useLoad(() => get<{ data: Agent[] }>("/console/v1/agents").then((r) => r.data), []);
  useEffect(() => void (document.title = "Agents · Parley"), []);
  return (
    <>
      <h1>Agents</h1>
      {atLeast(member.role, "editor") && <CreateAgent />}
      <section aria-labelledby="agents-list">
        <h2 id="agents-list">All agents</h2>
        {error && <ErrorText message={error} />}
        {!data && !error && <Loading />}
        {data && data.length === 0 && <p class="empty">No agents yet.</p>}
        {data && data.length > 0 && (
          <table>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Visibility</th><th scope="col">Sources</th><th scope="col">Conversations</th><th scope="col">Created</th></tr>
            </thead>
            <tbody>
              {data.map((a) => (
                <tr key={a.id}>
                  <td><a href={href("agents", a.id, "settings")}>{a.name}</a></td>
                  <td><Badge kind={a.status}>{a.status}</Badge></td>
                  <td>{a.private ? "Private" : "Public"}</td>
                  <td class="num">{a.counts.sources}</td>
                  <td class="num">{a.counts.conversations}</td>
                  <td><Time at={a.createdAt} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

function CreateAgent() {
  const [name, setName] = useState("");
  const [error, setError] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    try {
      const r = await api<{ data: Agent }>("POST", "/console/v1/agents", { name });
      location.hash = href("agents", r.data.id, "settings");
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <section aria-labelledby="create-agent" class="card">
      <h2 id="create-agent">Create an agent</h2>
      <form class="inline" onSubmit={submit}>
        <label for="agent-name">Agent name</label>
        <input id="agent-name" value={name} onInput={(e) => setName(e.currentTarget.value)} required maxLength={200} />
        <button type="submit" class="primary">Create agent</button>
      </form>
      <ErrorText message={error} />
    </section>
  );
}
