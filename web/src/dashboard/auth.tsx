// Signing in and out: the sign-in page, and the session (member and account) shared with pages.
import { createContext } from "preact";
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, token } from "./api";
import type { Account, Member } from "./types";

export interface Session {
  member: Member;
  account: Account;
  setAccount(account: Account): void;
  signOut(): Promise<void>;
}

export const SessionContext = createContext<Session | null>(null);
export const useSession = () => useContext(SessionContext)!;

export async function loadMe(): Promise<{ member: Member; account: Account }> {
  const me = await api<{ data: { member: Member; account: Account } }>("GET", "/console/v1/me");
  return me.data;
}

export function SignIn(props: { notice?: string; onSignedIn(me: { member: Member; account: Account }): void }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    document.title = "Sign in · Parley";
    emailRef.current?.focus();
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError("");
    try {
      const session = await api<{ token: string }>("POST", "/console/v1/login", { email, password });
      token.set(session.token);
      props.onSignedIn(await loadMe());
    } catch (err) {
      token.clear();
      setError(err instanceof ApiError ? err.message : String(err));
      setBusy(false);
    }
  }

  return (
    <main class="signin">
      <form class="card signin-card" onSubmit={submit} noValidate>
        <h1>Sign in to Parley</h1>
        {props.notice && !error && <p class="notice">{props.notice}</p>}
        <label for="signin-email">Email</label>
        <input id="signin-email" ref={emailRef} type="email" autocomplete="username" value={email}
          onInput={(e) => setEmail(e.currentTarget.value)} aria-describedby={error ? "signin-error" : undefined} />
        <label for="signin-password">Password</label>
        <input id="signin-password" type="password" autocomplete="current-password" value={password}
          onInput={(e) => setPassword(e.currentTarget.value)} aria-describedby={error ? "signin-error" : undefined} />
        {error && <div role="alert" id="signin-error" class="error">{error}</div>}
        <button type="submit" class="primary" disabled={busy}>Sign in</button>
      </form>
    </main>
  );
}
