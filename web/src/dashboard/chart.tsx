// An inline SVG bar chart of messages per day, with a title and a description for screen readers
// (role="img"); each bar has its own <title> for pointer users.
export interface DayCount {
  date: string; // YYYY-MM-DD
  messages: number;
}

const W = 720;
const H = 220;
const PAD = { top: 12, right: 8, bottom: 28, left: 40 };

const short = (date: string) =>
  new Date(date + "T00:00:00Z").toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

// A round top for the axis whose half is a whole number too (counts have no fractions).
function niceMax(n: number): number {
  if (n <= 4) return 4;
  if (n <= 10) return Math.ceil(n / 2) * 2;
  const step = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 4, 5, 10]) if (m * step >= n) return m * step;
  return 10 * step;
}

export function BarChart(props: { days: DayCount[]; title: string }) {
  const days = props.days;
  const total = days.reduce((s, d) => s + d.messages, 0);
  const busiest = days.reduce<DayCount | null>((b, d) => (!b || d.messages > b.messages ? d : b), null);
  const max = niceMax(busiest?.messages ?? 0);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(days.length, 1);
  const barW = Math.max(2, slot * 0.7);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const ticks = [0, max / 2, max];
  const labelEvery = Math.ceil(days.length / 8);
  const description = days.length
    ? `${days.length} days from ${short(days[0].date)} to ${short(days[days.length - 1].date)}: ${total} messages in all` +
      (busiest && busiest.messages > 0 ? `, the most on ${short(busiest.date)} (${busiest.messages}).` : ".")
    : "No days to show.";

  return (
    <svg class="chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="chart-title chart-desc" preserveAspectRatio="xMidYMid meet">
      <title id="chart-title">{props.title}</title>
      <desc id="chart-desc">{description}</desc>
      {ticks.map((t) => (
        <g>
          <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} class="grid" />
          <text x={PAD.left - 6} y={y(t) + 4} text-anchor="end" class="axis">{t.toLocaleString()}</text>
        </g>
      ))}
      {days.map((d, i) => {
        const x = PAD.left + i * slot + (slot - barW) / 2;
        return (
          <g>
            <rect x={x} y={y(d.messages)} width={barW} height={Math.max(0, PAD.top + plotH - y(d.messages))} class="bar" rx={1}>
              <title>{`${short(d.date)}: ${d.messages} messages`}</title>
            </rect>
            {i % labelEvery === 0 && <text x={x + barW / 2} y={H - 8} text-anchor="middle" class="axis">{short(d.date)}</text>}
          </g>
        );
      })}
    </svg>
  );
}
