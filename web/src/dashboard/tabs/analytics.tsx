// An agent's figures: a period picker (from and to, in the account's time zone), the period's
// totals, and charts per day, each with its table (analytics/chart.tsx).
import { useMemo, useState } from "preact/hooks";
import { get, query } from "../api";
import { ErrorText, Loading, useLoad } from "../components";
import { DayChart, type ChartSeries } from "../analytics/chart";
import type { AgentAnalytics, Figures } from "../analytics/types";

const rate = (v: number | null) => (v === null ? "—" : `${Math.round(v * 1000) / 10}%`);

function Totals(props: { totals: Figures }) {
  const t = props.totals;
  const stats: [string, string, string][] = [
    ["Conversations", t.conversations.toLocaleString(), `${t.visitorMessages.toLocaleString()} visitor messages`],
    ["Answered", t.answered.toLocaleString(), `${t.fallbacks.toLocaleString()} fallback replies, ${t.lowConfidence.toLocaleString()} low confidence`],
    ["Resolution rate", rate(t.resolutionRate), `${t.resolved} of ${t.ended} ended conversations`],
    ["Hand-off rate", rate(t.handoffRate), `${t.handoffs} hand-offs, ${t.liveChats} live chats`],
    ["Average CSAT", t.csat.average === null ? "—" : t.csat.average.toFixed(2), `${t.csat.count} ratings`],
    ["Thumbs", `${t.thumbs.up} up · ${t.thumbs.down} down`, "on the agent's replies"],
  ];
  return (
    <div class="stats">
      {stats.map(([label, value, note]) => (
        <div class="card stat" role="group" aria-label={label}>
          <h3>{label}</h3>
          <p class="big">{value}</p>
          <p class="muted small">{note}</p>
        </div>
      ))}
    </div>
  );
}

export function AnalyticsTab(props: { agentId: string }) {
  const [period, setPeriod] = useState<{ from?: string; to?: string }>({});
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const { data, error } = useLoad(async () => {
    const r = await get<{ data: AgentAnalytics }>(`/console/v1/agents/${encodeURIComponent(props.agentId)}/analytics` + query(period));
    setFrom(r.data.from);
    setTo(r.data.to);
    return r.data;
  }, [props.agentId, period.from, period.to]);

  const charts = useMemo(() => {
    if (!data) return null;
    const pick = (f: (d: Figures) => number | null) => data.days.map(f);
    const s = (label: string, color: string, f: (d: Figures) => number | null): ChartSeries => ({ label, color, values: pick(f) });
    return {
      dates: data.days.map((d) => d.date),
      conversations: [s("Conversations", "#2563eb", (d) => d.conversations), s("Hand-offs", "#dc2626", (d) => d.handoffs)],
      replies: [s("Answered", "#16a34a", (d) => d.answered), s("Fallback", "#d97706", (d) => d.fallbacks)],
      rates: [s("Resolution rate", "#16a34a", (d) => d.resolutionRate), s("Hand-off rate", "#dc2626", (d) => d.handoffRate)],
      csat: [s("Average CSAT", "#7c3aed", (d) => d.csat.average)],
    };
  }, [data]);

  return (
    <>
      <h2 id="tab-heading">Analytics</h2>
      <form class="inline" aria-label="Period" onSubmit={(e) => { e.preventDefault(); setPeriod({ from, to }); }}>
        <label for="analytics-from">From</label>
        <input id="analytics-from" type="date" value={from} required onInput={(e) => setFrom(e.currentTarget.value)} />
        <label for="analytics-to">To</label>
        <input id="analytics-to" type="date" value={to} required onInput={(e) => setTo(e.currentTarget.value)} />
        <button type="submit">Show period</button>
        {[7, 30, 90].map((n) => (
          <button type="button" class="link" onClick={() => {
            const end = data?.to ?? new Date().toISOString().slice(0, 10);
            const start = new Date(Date.parse(end + "T00:00:00Z") - (n - 1) * 86400000).toISOString().slice(0, 10);
            setPeriod({ from: start, to: end });
          }}>Last {n} days</button>
        ))}
      </form>
      <ErrorText message={error} />
      {!data && !error && <Loading />}
      {data && charts && (
        <>
          <p class="muted small">Days in the account's time zone ({data.timeZone}), {data.from} to {data.to}. A conversation counts on the day it started.</p>
          <Totals totals={data.totals} />
          <DayChart id="chart-conversations" title="Conversations per day" dates={charts.dates} series={charts.conversations} />
          <DayChart id="chart-replies" title="Answered and fallback replies per day" dates={charts.dates} series={charts.replies} />
          <DayChart id="chart-rates" title="Resolution and hand-off rates per day" dates={charts.dates} series={charts.rates} percent />
          <DayChart id="chart-csat" title="Average CSAT per day" dates={charts.dates} series={charts.csat} />
          <section class="card" aria-labelledby="analytics-channels">
            <h3 id="analytics-channels">Channels and topics</h3>
            <table aria-label="Conversations per channel">
              <thead><tr><th scope="col">Channel</th><th scope="col">Conversations</th></tr></thead>
              <tbody>
                {Object.entries(data.totals.channels).map(([name, n]) => <tr><th scope="row">{name}</th><td class="num">{n}</td></tr>)}
              </tbody>
            </table>
            <table aria-label="Most asked topics">
              <thead><tr><th scope="col">Topic</th><th scope="col">Conversations</th></tr></thead>
              <tbody>
                {data.totals.topics.map((t) => <tr><th scope="row">{t.topic}</th><td class="num">{t.conversations}</td></tr>)}
              </tbody>
            </table>
            {data.totals.topics.length === 0 && <p class="muted small">No topics in this period.</p>}
          </section>
        </>
      )}
    </>
  );
}
