// CSV per RFC 4180: CRLF between records, fields with a comma, a double quote, CR or LF are
// enclosed in double quotes and their double quotes doubled. Downloaded through a Blob. A value
// a visitor wrote that a spreadsheet would run as a formula (it begins with =, +, -, @, a tab or a
// CR, and is not simply a number or a phone number) gets a leading apostrophe (OWASP's advice).
import { get, query } from "./api";
import type { Page } from "./types";

export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? "" : typeof value === "object" ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s) && !/^[+-]?[\d\s().-]+$/.test(s)) s = "'" + s;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}

// Every page of a list, following nextCursor.
export async function fetchAll<T>(path: string): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await get<Page<T>>(path + query({ limit: 100, cursor }));
    all.push(...page.data);
    cursor = page.hasMore && page.nextCursor ? page.nextCursor : undefined;
  } while (cursor);
  return all;
}

export function downloadCsv(filename: string, csv: string) {
  const url = URL.createObjectURL(new Blob([csv], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
