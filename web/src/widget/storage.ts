// The visitor id and the conversation id, per agent, in the page's localStorage
// (parley:<agentId>:visitor, parley:<agentId>:conversation). Storage may be unavailable (blocked
// cookies, private modes): the widget then keeps them for the page's lifetime only.
const memory = new Map<string, string>();

function get(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return memory.get(key) ?? null;
  }
}

function set(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    if (value === null) memory.delete(key);
    else memory.set(key, value);
  }
}

// 22 base62 characters from the browser's random source (crypto.randomUUID needs a secure
// context; pages served over http are not).
export function randomId(prefix: string): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  const bytes = crypto.getRandomValues(new Uint8Array(22));
  let id = prefix;
  for (const b of bytes) id += alphabet[b % 62];
  return id;
}

export function visitorId(agentId: string): string {
  const key = `parley:${agentId}:visitor`;
  let id = get(key);
  if (!id || id.length > 100) {
    id = randomId("v_");
    set(key, id);
  }
  return id;
}

export const conversation = {
  get: (agentId: string) => get(`parley:${agentId}:conversation`),
  set: (agentId: string, id: string | null) => set(`parley:${agentId}:conversation`, id),
};

// The user id the remembered conversation was identified as (Parley.identify with another user
// starts a new conversation, so one person's transcript is not shown to the next).
export const conversationUser = {
  get: (agentId: string) => get(`parley:${agentId}:user`),
  set: (agentId: string, userId: string | null) => set(`parley:${agentId}:user`, userId),
};
