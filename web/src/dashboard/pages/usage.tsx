// The plan, this month's messages against its limit, messages per day, and (owners) the plan change
// and the conversation retention.
import { useEffect, useState } from "preact/hooks";
import { api, atLeast, get } from "../api";
import { useSession } from "../auth";
import { BarChart, type DayCount } from "../chart";
import { ErrorText, Loading, messageOf, useLoad } from "../components";
import type { Account, Plan } from "../types";

interface Usage {
  period: unknown;
  messagesUsed: number;
  messagesPerMonth: number;
  days: DayCount[];
}

const PLANS: Plan[] = ["free", "starter", "pro", "enterprise"];

function periodText(p: unknown): string {
  if (typeof p === "string") return p;
  if (p && typeof p === "object") {
    const o = p as Record<string, unknown>;
    const start = o.start ?? o.from;
    const end = o.end ?? o.to;
    if (typeof start === "string" && typeof end === "string") return `${start.slice(0, 10)} to ${end.slice(0, 10)}`;
  }
  return "";
}

export function UsagePage() {
  const { member, account } = useSession();
  const { data, error, reload } = useLoad(() => get<{ data: Usage }>("/console/v1/account/usage?days=30").then((r) => r.data), []);
  useEffect(() => void (document.title = "Usage · Parley"), []);
  const used = data?.messagesUsed ?? 0;
  const limit = data?.messagesPerMonth ?? account.limits.messagesPerMonth;
  const period = periodText(data?.period);

  return (
    <>
      <h1>Usage</h1>
      <div class="stats">
        <div class="card stat">
          <h2>Plan</h2>
          <p class="big capitalize">{account.plan}</p>
          <p class="muted">API access: {account.limits.apiAccess ? "yes" : "no"} · training characters: {account.limits.trainingCharacters.toLocaleString()}</p>
        </div>
        <div class="card stat">
          <h2>Messages this month</h2>
          {error && <ErrorText message={error} />}
          {!data && !error && <Loading />}
          {data && (
            <>
              <p class="big">{used.toLocaleString()} <span class="of">of {limit.toLocaleString()}</span></p>
              <progress max={Math.max(limit, 1)} value={Math.min(used, limit)} aria-label="Messages used this month" />
              {period && <p class="muted">Period: {period}</p>}
            </>
          )}
        </div>
      </div>
      <section aria-labelledby="per-day" class="card">
        <h2 id="per-day">Messages per day (last 30 days)</h2>
        {data && <BarChart days={data.days} title="Messages per day, last 30 days" />}
        {data && <p class="muted small">Visitors' and API users' messages per UTC day.</p>}
      </section>
      {atLeast(member.role, "admin") && <TimeZone />}
      {atLeast(member.role, "owner") ? <ChangePlan onChanged={reload} /> : <p class="muted">Only owners change the plan.</p>}
      {atLeast(member.role, "owner") && <Retention />}
    </>
  );
}

function ChangePlan(props: { onChanged(): void }) {
  const { account, setAccount } = useSession();
  const [plan, setPlan] = useState<Plan>(account.plan);
  const [error, setError] = useState("");
  const [done, setDone] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    setDone("");
    try {
      const r = await api<{ data: Account }>("PUT", "/console/v1/account", { plan });
      setAccount(r.data);
      props.onChanged();
      setDone(`The plan is now ${r.data.plan}.`);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <section aria-labelledby="plan-heading" class="card">
      <h2 id="plan-heading">Change the plan</h2>
      <form class="inline" onSubmit={submit}>
        <label for="plan-select">Plan</label>
        <select id="plan-select" value={plan} onChange={(e) => setPlan(e.currentTarget.value as Plan)}>
          {PLANS.map((p) => <option value={p}>{p}</option>)}
        </select>
        <button type="submit" class="primary" disabled={plan === account.plan}>Change plan</button>
        <span role="status" class="ok">{done}</span>
      </form>
      {plan === "free" && account.plan !== "free" && <p class="notice">On Free the API refuses every key until you upgrade again.</p>}
      <ErrorText message={error} />
    </section>
  );
}

// The account's time zone (admins and owners): the days an agent's figures are counted in.
function TimeZone() {
  const { account, setAccount } = useSession();
  const [zone, setZone] = useState(account.timeZone ?? "UTC");
  const [error, setError] = useState("");
  const [done, setDone] = useState("");
  const zones: string[] = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    setDone("");
    try {
      const r = await api<{ data: Account }>("PATCH", "/console/v1/account", { timeZone: zone.trim() });
      setAccount(r.data);
      setDone(`Figures now count days in ${r.data.timeZone}.`);
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <section aria-labelledby="zone-heading" class="card">
      <h2 id="zone-heading">Time zone</h2>
      <form class="inline" onSubmit={submit}>
        <label for="zone-input">Time zone</label>
        <input id="zone-input" list="zone-names" value={zone} maxLength={64} required aria-describedby="zone-note" onInput={(e) => setZone(e.currentTarget.value)} />
        <datalist id="zone-names">{zones.map((z) => <option value={z} />)}</datalist>
        <button type="submit" disabled={zone.trim() === (account.timeZone ?? "UTC")}>Save time zone</button>
        <span role="status" class="ok">{done}</span>
      </form>
      <p id="zone-note" class="muted small">An IANA name such as Europe/Paris. Conversations started after a change count on days in the new zone.</p>
      <ErrorText message={error} />
    </section>
  );
}

// How long the account keeps conversations after their last activity (owners): a number of days,
// or for ever (docs/decisions/records.md).
function Retention() {
  const { account, setAccount } = useSession();
  const [days, setDays] = useState(account.retentionDays ? String(account.retentionDays) : "");
  const [error, setError] = useState("");
  const [done, setDone] = useState("");
  async function save(retentionDays: number | null) {
    setError("");
    setDone("");
    try {
      const r = await api<{ data: Account }>("PATCH", "/console/v1/account", { retentionDays });
      setAccount(r.data);
      setDays(r.data.retentionDays ? String(r.data.retentionDays) : "");
      setDone(r.data.retentionDays ? `Conversations are kept ${r.data.retentionDays} days after their last activity.` : "Conversations are kept for ever.");
    } catch (err) {
      setError(messageOf(err));
    }
  }
  return (
    <section aria-labelledby="retention-heading" class="card">
      <h2 id="retention-heading">Conversation retention</h2>
      <p class="muted">
        {account.retentionDays ? `Conversations older than ${account.retentionDays} days (since their last message) are deleted with their messages, events and webhook deliveries.` : "Conversations are kept for ever."}
      </p>
      <form class="inline" onSubmit={(e) => { e.preventDefault(); void save(days.trim() === "" ? null : Number(days)); }}>
        <label for="retention-days">Keep conversations for (days)</label>
        <input id="retention-days" type="number" min={1} max={36500} step={1} value={days} onInput={(e) => setDays(e.currentTarget.value)} />
        <button type="submit" class="primary">Save retention</button>
        <button type="button" onClick={() => void save(null)}>Keep for ever</button>
        <span role="status" class="ok">{done}</span>
      </form>
      <ErrorText message={error} />
    </section>
  );
}
