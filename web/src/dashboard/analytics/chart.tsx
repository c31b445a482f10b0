// A chart of figures per day drawn by uPlot (canvas), with its accessible alternative: the canvas
// sits in an element with role="img" named after the chart and described by a one-line summary,
// and the same figures are a table (named after the chart too) in a disclosure below it.
import { useEffect, useRef } from "preact/hooks";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

export interface ChartSeries {
  label: string;
  values: (number | null)[];
  color: string;
}

const HEIGHT = 220;

const shortDate = (date: string) =>
  new Date(date + "T00:00:00Z").toLocaleDateString(undefined, { month: "short", day: "numeric", timeZone: "UTC" });

function cell(v: number | null, percent: boolean): string {
  if (v === null) return "—";
  return percent ? `${Math.round(v * 1000) / 10}%` : String(Math.round(v * 100) / 100);
}

export function DayChart(props: { id: string; title: string; dates: string[]; series: ChartSeries[]; percent?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const percent = !!props.percent;
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = props.dates.map((d) => Date.parse(d + "T00:00:00Z") / 1000);
    const plot = new uPlot(
      {
        width: Math.max(el.clientWidth, 320),
        height: HEIGHT,
        legend: { show: true },
        scales: { x: { time: true }, y: percent ? { range: [0, 1] } : { range: (_u, _min, max) => [0, Math.max(4, max)] } },
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => (percent ? `${Math.round(t * 100)}%` : String(t))) }],
        series: [{}, ...props.series.map((s) => ({ label: s.label, stroke: s.color, width: 2, spanGaps: false }))],
      },
      [xs, ...props.series.map((s) => s.values)] as uPlot.AlignedData,
      el,
    );
    return () => plot.destroy();
  }, [props.dates, props.series, percent]);

  const summary = props.series
    .map((s) => {
      const known = s.values.filter((v): v is number => v !== null);
      if (!known.length) return `${s.label}: no figures`;
      return percent
        ? `${s.label}: from ${cell(Math.min(...known), true)} to ${cell(Math.max(...known), true)}`
        : `${s.label}: ${known.reduce((a, b) => a + b, 0)} in all, at most ${Math.max(...known)} a day`;
    })
    .join("; ");
  const range = props.dates.length ? `${shortDate(props.dates[0])} to ${shortDate(props.dates[props.dates.length - 1])}` : "";
  return (
    <figure class="card analytics-chart" aria-labelledby={`${props.id}-title`}>
      <h3 id={`${props.id}-title`}>{props.title}</h3>
      <div ref={box} role="img" aria-label={`${props.title} chart`} aria-describedby={`${props.id}-summary`} />
      <p id={`${props.id}-summary`} class="muted small">{range}: {summary}.</p>
      <details>
        <summary>{props.title}: table</summary>
        <table aria-label={props.title}>
          <thead>
            <tr><th scope="col">Date</th>{props.series.map((s) => <th scope="col">{s.label}</th>)}</tr>
          </thead>
          <tbody>
            {props.dates.map((d, i) => (
              <tr key={d}>
                <th scope="row">{d}</th>
                {props.series.map((s) => <td class="num">{cell(s.values[i], percent)}</td>)}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
