// The website chat widget, embedded with
//   <script src="https://HOST/widget.js" data-agent-id="agt_…" async></script>
// and, for a visitor the site knows, data-user-id and data-user-hash on the same tag (or
// Parley.identify({userId, userHash}) later; widget/identity.ts). Its server is the script's own
// origin. It renders inside the shadow root of an element it adds
// to document.body, so the page's CSS and the widget's do not meet (docs/decisions/dashboard.md).
import { render } from "preact";
import { App } from "./app";
import { WidgetApi } from "./api";
import { css } from "./styles";
import { identityOf, setIdentity } from "./identity";

declare global {
  interface Window {
    Parley?: { identify?: (identity: { userId: string; userHash: string }) => void; reset?: () => void };
  }
}

function findScript(): HTMLScriptElement | null {
  const current = document.currentScript as HTMLScriptElement | null;
  if (current?.dataset.agentId) return current;
  return document.querySelector<HTMLScriptElement>('script[data-agent-id][src*="widget.js"]');
}

function start(script: HTMLScriptElement) {
  const agentId = script.dataset.agentId;
  if (!agentId) {
    console.warn("Parley widget: the script tag needs data-agent-id.");
    return;
  }
  // The same agent's widget included twice renders once.
  if (Array.from(document.querySelectorAll("parley-chat")).some((el) => el.getAttribute("data-agent-id") === agentId)) return;
  if (script.dataset.userId || script.dataset.userHash)
    setIdentity(identityOf({ userId: script.dataset.userId, userHash: script.dataset.userHash }));
  const base = new URL(script.src, location.href).origin;
  const host = document.createElement("parley-chat");
  host.setAttribute("data-agent-id", agentId);
  document.body.appendChild(host);
  const shadow = host.attachShadow({ mode: "open" });
  const style = document.createElement("style");
  style.textContent = css;
  shadow.appendChild(style);
  const mount = document.createElement("div");
  shadow.appendChild(mount);
  render(<App api={new WidgetApi(base, agentId)} agentId={agentId} />, mount);
}

const script = findScript();
// Parley.identify and Parley.reset for single-page sites; "parley:ready" tells a page that loads the script
// asynchronously when it may call it.
window.Parley = Object.assign(window.Parley ?? {}, {
  identify(identity: { userId: string; userHash: string }) {
    const checked = identityOf(identity);
    if (checked) setIdentity(checked);
  },
  // The visitor signed out: forget who they were and the conversation they had.
  reset() {
    setIdentity(null);
  },
});
window.dispatchEvent(new Event("parley:ready"));
if (script) {
  if (document.body) start(script);
  else document.addEventListener("DOMContentLoaded", () => start(script), { once: true });
}
