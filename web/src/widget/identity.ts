// The visitor's signed identity, as the page gives it: `data-user-id` and `data-user-hash` on the
// script tag, or Parley.identify({userId, userHash}) on a single-page site once the visitor signs
// in (docs/decisions/widget-identity.md). The hash is hex(HMAC-SHA256(identity secret, userId)),
// computed by the site's server; the widget only passes it on, and the server checks it.
export interface Identity {
  userId: string;
  userHash: string;
}

let current: Identity | null = null;
const listeners = new Set<(identity: Identity | null) => void>();

// An identity from what a page passed, or null when it is not one (a warning says why).
export function identityOf(value: unknown): Identity | null {
  const v = value as { userId?: unknown; userHash?: unknown } | null;
  if (!v || typeof v.userId !== "string" || typeof v.userHash !== "string" || !v.userId || !v.userHash) {
    console.warn("Parley widget: identify needs {userId, userHash}, both non-empty strings.");
    return null;
  }
  return { userId: v.userId, userHash: v.userHash };
}

export function getIdentity(): Identity | null {
  return current;
}

export function setIdentity(identity: Identity | null): void {
  if (identity?.userId === current?.userId && identity?.userHash === current?.userHash) return;
  current = identity;
  for (const f of listeners) f(identity);
}

export function onIdentity(f: (identity: Identity | null) => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}
