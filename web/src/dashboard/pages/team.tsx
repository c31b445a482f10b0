// The team: members and their roles; admins remove members (owners only by owners).
import { useEffect, useState } from "preact/hooks";
import { api, atLeast, get } from "../api";
import { useSession } from "../auth";
import { Badge, Confirm, ErrorText, Loading, Time, useLoad } from "../components";
import type { Member } from "../types";

const ROLE_TEXT = [
  ["owner", "everything, including the plan"],
  ["admin", "API keys, webhooks and removing members"],
  ["editor", "agents, their settings and knowledge, live chat"],
  ["viewer", "reads everything"],
];

export function TeamPage() {
  const session = useSession();
  const me = session.member;
  const { data, error, reload } = useLoad(() => get<{ data: Member[] }>("/console/v1/members").then((r) => r.data), []);
  const [removing, setRemoving] = useState<Member | null>(null);
  useEffect(() => void (document.title = "Team · Parley"), []);
  const canRemove = (m: Member) => m.id !== me.id && atLeast(me.role, "admin") && (m.role !== "owner" || me.role === "owner");

  return (
    <>
      <h1>Team</h1>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading">Members of {session.account.name}</h2>
        {error && <ErrorText message={error} />}
        {!data && !error && <Loading />}
        {data && (
          <table>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Member since</th><th scope="col"><span class="sr-only">Actions</span></th></tr>
            </thead>
            <tbody>
              {data.map((m) => (
                <tr key={m.id}>
                  <td class="strong">{m.name ?? <span class="muted">—</span>}{m.id === me.id && " (you)"}</td>
                  <td>{m.email}</td>
                  <td><Badge kind={"role-" + m.role}>{m.role}</Badge></td>
                  <td><Time at={m.createdAt} /></td>
                  <td>{canRemove(m) && <button type="button" class="link danger" aria-label={`Remove ${m.name ?? m.email}`} onClick={() => setRemoving(m)}>Remove</button>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p class="muted">New members are added by the server's operator (<code>parley admin member create</code>).</p>
      </section>
      <section aria-labelledby="roles-heading">
        <h2 id="roles-heading">Roles</h2>
        <dl class="roles">
          {ROLE_TEXT.map(([role, text]) => <div><dt>{role}</dt><dd>{text}</dd></div>)}
        </dl>
      </section>
      {removing && (
        <Confirm title={`Remove ${removing.name ?? removing.email}?`} action="Remove member"
          body="They are signed out at once. The API keys they created keep working."
          onClose={() => setRemoving(null)}
          onConfirm={async () => { await api("DELETE", `/console/v1/members/${removing.id}`); await reload(); }} />
      )}
    </>
  );
}
