// The page's own checks of data it did not write, without a browser: the CSV writer's formula
// guard and quoting (csv.ts), and the link and image checks (shared/url.ts) that every link and
// product image in the widget and the dashboard goes through.
import { expect, test } from "@playwright/test";

// shared/url.ts resolves relative links against the page's address.
(globalThis as any).location = { href: "https://parley.test/dashboard/" };
const { safeImageUrl, safeUrl } = await import("../src/shared/url");
const { csvField, toCsv } = await import("../src/dashboard/csv");

test("a CSV field a spreadsheet would run as a formula is made text", () => {
  for (const formula of ["=1+2", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\tx", "\r=1", "=HYPERLINK(\"http://x\")"]) {
    expect(csvField(formula).replace(/^"/, "").startsWith("'"), formula).toBe(true);
  }
  // Numbers and phone numbers stay as they are.
  for (const plain of ["-12", "+33 1 23 45 67 89", "-(555) 010-0199", "42", "a=b"]) expect(csvField(plain)).toBe(plain);
});

test("CSV fields are quoted per RFC 4180", () => {
  expect(csvField('say "hi", then\r\nleave')).toBe('"say ""hi"", then\r\nleave"');
  expect(csvField(null)).toBe("");
  expect(csvField({ a: 1 })).toBe('"{""a"":1}"');
  expect(toCsv(["h1", "h2"], [["=x", "y,z"]])).toBe("h1,h2\r\n'=x,\"y,z\"\r\n");
});

test("links are http, https, mailto or tel, made absolute", () => {
  expect(safeUrl("https://shop.example/a?b=c")).toBe("https://shop.example/a?b=c");
  expect(safeUrl("/pricing")).toBe("https://parley.test/pricing");
  expect(safeUrl("mailto:team@shop.example")).toBe("mailto:team@shop.example");
  for (const bad of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "data:text/html,<b>x",
                     "vbscript:x", "file:///etc/passwd", "", null, undefined]) {
    expect(safeUrl(bad as any), String(bad)).toBeNull();
  }
});

test("product images pass the link check narrowed to http and https", () => {
  expect(safeImageUrl("https://cdn.shop.example/hat.png")).toBe("https://cdn.shop.example/hat.png");
  for (const bad of ["mailto:a@b.example", "tel:+3312345678", "data:image/svg+xml,<svg onload=alert(1)>",
                     "javascript:alert(1)", null]) {
    expect(safeImageUrl(bad as any), String(bad)).toBeNull();
  }
});
