// The frame around every signed-in page: a header with the account, the member and "Sign out",
// the main navigation and the main landmark (focused on navigation for screen-reader users).
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";
import { atLeast } from "./api";
import { useSession } from "./auth";
import type { Route } from "./router";

const NAV = [
  ["#/", "Agents", (r: Route) => r.page === "agents" || r.page === "agent"],
  ["#/keys", "API keys", (r: Route) => r.page === "keys"],
  ["#/team", "Team", (r: Route) => r.page === "team"],
  ["#/usage", "Usage", (r: Route) => r.page === "usage"],
  // Owners and admins only: the link is not shown to others (the server refuses them anyway).
  ["#/audit", "Audit log", (r: Route) => r.page === "audit"],
] as const;

export function Shell(props: { route: Route; children: ComponentChildren }) {
  const { member, account, signOut } = useSession();
  const main = useRef<HTMLElement>(null);
  const page = props.route.page;
  useEffect(() => {
    // Move focus to the new page's content on page changes (not on first render).
    if (document.activeElement && document.activeElement !== document.body) main.current?.focus();
  }, [page]);
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>Skip to content</a>
      <header class="topbar">
        <a class="brand" href="#/">Parley</a>
        <nav aria-label="Main">
          <ul>
            {NAV.filter(([to]) => to !== "#/audit" || atLeast(member.role, "admin")).map(([to, label, active]) => (
              <li><a href={to} aria-current={active(props.route) ? "page" : undefined}>{label}</a></li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="account">{account.name}</span>
          <span class="member">
            {member.name ?? member.email} <span class="role">({member.role})</span>
          </span>
          <button type="button" onClick={signOut}>Sign out</button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>{props.children}</main>
    </>
  );
}
