// Reply text: plain text with a little Markdown (paragraphs, line breaks, **bold**, [links](url),
// bare http(s) links). Everything else is shown as written; nothing is parsed as HTML.
import type { ComponentChildren } from "preact";

import { safeUrl } from "../shared/url";

export { safeUrl };

export function Link(props: { href: string | null; children: ComponentChildren; class?: string }) {
  const href = safeUrl(props.href);
  if (!href) return <span class={props.class}>{props.children}</span>;
  return (
    <a class={props.class} href={href} target="_blank" rel="noopener noreferrer">
      {props.children}
    </a>
  );
}

const inline = /\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

function Inline({ text }: { text: string }) {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(inline)) {
    const at = m.index ?? 0;
    if (at > last) out.push(text.slice(last, at));
    if (m[1] !== undefined) out.push(<strong>{m[1]}</strong>);
    else if (m[2] !== undefined) out.push(<Link href={m[3]}>{m[2]}</Link>);
    else out.push(<Link href={m[4]}>{m[4]}</Link>);
    last = at + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return <>{out}</>;
}

export function RichText({ text }: { text: string }) {
  const paragraphs = text.split(/\n{2,}/);
  return (
    <>
      {paragraphs.map((p) => (
        <p>
          {p.split("\n").map((line, i) => (
            <>
              {i > 0 && <br />}
              <Inline text={line} />
            </>
          ))}
        </p>
      ))}
    </>
  );
}
