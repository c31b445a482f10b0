// The dashboard: signs in, then shows the page the hash names inside the shell (header, nav).
import { render } from "preact";
import { useEffect, useState } from "preact/hooks";
import "./dashboard.css";
import { api, setUnauthorizedHandler, token } from "./api";
import { loadMe, SessionContext, SignIn, type Session } from "./auth";
import { Shell } from "./shell";
import { useRoute, type Route } from "./router";
import { AgentsPage } from "./pages/agents";
import { AgentPage } from "./pages/agent";
import { KeysPage } from "./pages/keys";
import { TeamPage } from "./pages/team";
import { UsagePage } from "./pages/usage";
import { AuditPage } from "./pages/audit";
import { messageOf } from "./components";
import type { Account, Member } from "./types";

function App() {
  const [me, setMe] = useState<{ member: Member; account: Account } | null>(null);
  const [checking, setChecking] = useState(() => token.get() !== null);
  const [notice, setNotice] = useState("");
  const route = useRoute();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      token.clear();
      setMe(null);
      setNotice("Your session has ended. Sign in again.");
    });
    if (token.get()) {
      loadMe()
        .then(setMe)
        .catch((err) => setNotice(messageOf(err)))
        .finally(() => setChecking(false));
    }
  }, []);

  if (checking) return <main class="signin"><p role="status">Loading…</p></main>;
  if (!me) return <SignIn notice={notice} onSignedIn={(m) => { setNotice(""); setMe(m); }} />;

  const session: Session = {
    member: me.member,
    account: me.account,
    setAccount: (account) => setMe({ ...me, account }),
    async signOut() {
      try {
        await api("POST", "/console/v1/logout");
      } catch {
        // the token is dropped either way
      }
      token.clear();
      setNotice("You have signed out.");
      setMe(null);
    },
  };
  return (
    <SessionContext.Provider value={session}>
      <Shell route={route}>
        <Page route={route} />
      </Shell>
    </SessionContext.Provider>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.page) {
    case "agents":
      return <AgentsPage />;
    case "agent":
      return <AgentPage key={route.agentId} agentId={route.agentId} tab={route.tab} itemId={route.itemId} />;
    case "keys":
      return <KeysPage />;
    case "team":
      return <TeamPage />;
    case "usage":
      return <UsagePage />;
    case "audit":
      return <AuditPage />;
    default:
      return (
        <>
          <h1>Page not found</h1>
          <p><a href="#/">Go to the agents</a></p>
        </>
      );
  }
}

render(<App />, document.getElementById("app")!);
