// The page's own checks of data it did not write, without a browser: the CSV writer's formula
// guard and quoting and its reader (csv.ts), the contact import's column presets and mapping
// (contact_mapping.ts), and the link and image checks (shared/url.ts) that every link and
// product image in the widget and the dashboard goes through.
import { expect, test } from "@playwright/test";

// shared/url.ts resolves relative links against the page's address.
(globalThis as any).location = { href: "https://parley.test/dashboard/" };
const { safeImageUrl, safeUrl } = await import("../src/shared/url");
const { csvField, parseCsv, toCsv } = await import("../src/dashboard/csv");
const { mappingOf, presetColumns } = await import("../src/dashboard/contact_mapping");

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

test("the CSV reader takes RFC 4180 records: quotes, doubled quotes, line breaks in fields, a byte order mark", () => {
  const text = '\ufeffName,"Note, with comma",Plan\r\n"Ann ""A"" Berg","two\nlines",gold\nBob,,\rCid,x,y';
  expect(parseCsv(text, 10)).toEqual([
    ["Name", "Note, with comma", "Plan"],
    ['Ann "A" Berg', "two\nlines", "gold"],
    ["Bob", "", ""],
    ["Cid", "x", "y"],
  ]);
  expect(parseCsv(text, 2)).toHaveLength(2);
  // The start of a larger file: a last record without its line end may be cut, so it is left out.
  expect(parseCsv("a,b\r\n1,2\r\n3,", 10, false)).toEqual([["a", "b"], ["1", "2"]]);
  expect(parseCsv("a,b", 10, false)).toEqual([["a", "b"]]);
  expect(parseCsv("", 10)).toEqual([]);
});

test("contact columns are preset from their headers as the server presets them", () => {
  const columns = presetColumns(["External ID", "E-mail", "phone_number", "Name", "Signup Date", "Größe", "2fa", "email"], ["c-1", "a@b.example"]);
  expect(columns.map((c) => [c.header, c.target, c.target === "attribute" ? c.attribute : ""])).toEqual([
    ["External ID", "external_id", ""],
    ["E-mail", "email", ""],
    ["phone_number", "attribute", "phone_number"], // "phonenumber" is no field's name
    ["Name", "name", ""],
    ["Signup Date", "attribute", "signup_date"],
    ["Größe", "ignore", ""], // not ASCII: no attribute name
    ["2fa", "ignore", ""], // an attribute name begins with a letter
    ["email", "ignore", ""], // Email is taken by an earlier column
  ]);
  expect(columns[0].sample).toBe("c-1");
  expect(columns[2].sample).toBe("");
});

test("the mapping sent names every column; a mapping the server would refuse is refused first", () => {
  const columns = presetColumns(["External ID", "E-mail", "Plan", "Notes"], []);
  expect(mappingOf(columns)).toEqual({ mapping: { "External ID": "external_id", "E-mail": "email", Plan: "attributes.plan", Notes: "attributes.notes" } });
  const none = columns.map((c) => ({ ...c, target: c.target === "attribute" ? c.target : ("ignore" as const) }));
  expect(mappingOf(none).error).toBe("Choose a column for External ID or Email: each contact needs one of them.");
  const twice = columns.map((c) => (c.header === "Notes" ? { ...c, attribute: "plan" } : c));
  expect(mappingOf(twice)).toMatchObject({ at: 3, error: "“Plan” and “Notes” are both imported as attribute plan; choose one." });
  const badName = columns.map((c) => (c.header === "Plan" ? { ...c, attribute: "Plan!" } : c));
  expect(mappingOf(badName).at).toBe(2);
  const twins = presetColumns(["Email", "Tag", "Tag"], []);
  expect(mappingOf(twins).error).toBe("Two columns are named “Tag”: rename one in the file, or import neither.");
  expect(mappingOf(twins.map((c) => (c.header === "Tag" ? { ...c, target: "ignore" as const } : c)))).toEqual({ mapping: { Email: "email", Tag: "ignore" } });
});
