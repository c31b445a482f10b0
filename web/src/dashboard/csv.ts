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

// Reads up to `maxRecords` records of RFC 4180 CSV text (a leading byte order mark dropped; CRLF,
// LF or CR between records; quoted fields with doubled quotes and line breaks). When `text` is the
// start of a larger file (`whole` false), a last record without its line end is left out unless it
// is the only one.
export function parseCsv(text: string, maxRecords: number, whole = true): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRecord = () => {
    record.push(field);
    records.push(record);
    record = [];
    field = "";
  };
  for (; i < text.length && records.length < maxRecords; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === "") {
      quoted = true;
    } else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" || c === "\n") {
      if (c === "\r" && text[i + 1] === "\n") i += 1;
      endRecord();
    } else {
      field += c;
    }
  }
  if (records.length < maxRecords && (field !== "" || record.length > 0) && (whole || records.length === 0)) endRecord();
  return records;
}
