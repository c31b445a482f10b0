// The console API client: JSON over fetch with the session token from sessionStorage. Every
// error becomes an ApiError carrying the API's own code and message, so pages can show it.
import type { Role } from "./types";

const TOKEN_KEY = "parley:console-token";

export class ApiError extends Error {
  constructor(public status: number, public code: string, message: string) {
    super(message);
  }
}

export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

// Called when the server answers 401 to a signed-in request (session expired or ended).
let onUnauthorized: () => void = () => {};
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

export function authHeaders(extra: Record<string, string> = {}): Record<string, string> {
  const t = token.get();
  return t ? { ...extra, Authorization: `Bearer ${t}` } : extra;
}

// The ApiError for a non-2xx answer: the API's own code and message when the body has them, else
// a generic one. A 401 to a signed-in request signs the page out.
export function errorFromBody(status: number, statusText: string, body: string): ApiError {
  let code = "http_" + status;
  let message = `The server answered ${status}${statusText ? " " + statusText : ""}.`;
  try {
    const parsed = JSON.parse(body);
    if (parsed?.error?.message) {
      code = parsed.error.code ?? code;
      message = parsed.error.message;
    }
  } catch {
    // not JSON: keep the generic message
  }
  if (status === 401 && token.get()) onUnauthorized();
  return new ApiError(status, code, message);
}

// Turns a non-2xx response into an ApiError with the API's message (or a generic one).
export async function errorFrom(res: Response): Promise<ApiError> {
  let body = "";
  try {
    body = await res.text();
  } catch {
    // unreadable body: the generic message
  }
  return errorFromBody(res.status, res.statusText, body);
}

export const NETWORK_ERROR = "Could not reach the server. Check your connection and try again.";

export async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: authHeaders(body === undefined ? {} : { "Content-Type": "application/json" }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "network_error", NETWORK_ERROR);
  }
  if (!res.ok) throw await errorFrom(res);
  return (await res.json()) as T;
}

export const get = <T = any>(path: string) => api<T>("GET", path);

export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? "?" + s : "";
}

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };
export const atLeast = (role: Role | undefined, needed: Role) => role !== undefined && RANK[role] >= RANK[needed];
