// The columns of a contact CSV file and what each becomes, as the server presets them
// (domain/contact_import_mapping.cpp): a header equal to a field's name once case, spaces,
// underscores and hyphens are set aside maps to it; another header to the attribute of its name
// (its words joined by underscores, in lower case) when that is a valid attribute name; else the
// column is not imported. The mapping sent names every column.

export const TARGETS = [
  ["ignore", "Not imported"],
  ["external_id", "External ID"],
  ["email", "Email"],
  ["phone", "Phone"],
  ["name", "Name"],
  ["attribute", "Attribute"],
] as const;
export type Target = (typeof TARGETS)[number][0];
const LABEL = Object.fromEntries(TARGETS) as Record<Target, string>;

const ATTRIBUTE_NAME = /^[a-z][a-z0-9_]{0,39}$/;
// Lower case without spaces, underscores and hyphens: "External ID" and "external_id" meet.
const folded = (header: string) => header.toLowerCase().replace(/[ \t_-]/g, "");
// "Signup Date" → "signup_date"; empty when the header holds anything but ASCII letters, digits
// and separators (space, hyphen, underscore, full stop).
export function slug(header: string): string {
  const words = header.split(/[ \t_.-]+/).filter(Boolean);
  return words.every((w) => /^[A-Za-z0-9]+$/.test(w)) ? words.join("_").toLowerCase() : "";
}

export interface Column {
  header: string;
  sample: string;
  target: Target;
  attribute: string;
}

// Each column's target as the server presets it; a field or attribute already taken by an earlier
// column leaves the later one out.
export function presetColumns(headers: string[], samples: string[]): Column[] {
  const taken = new Set<string>();
  return headers.map((header, i) => {
    const column: Column = { header, sample: samples[i] ?? "", target: "ignore", attribute: slug(header) };
    const field = (["external_id", "email", "phone", "name"] as const).find((f) => folded(f) === folded(header));
    const target = field ?? (ATTRIBUTE_NAME.test(column.attribute) ? "attributes." + column.attribute : "ignore");
    if (target !== "ignore" && !taken.has(target)) {
      taken.add(target);
      column.target = field ?? "attribute";
    }
    return column;
  });
}

// The mapping as the server takes it: every header → its field, `attributes.<name>` or `ignore`.
export function mappingOf(columns: Column[]): { mapping?: Record<string, string>; error?: string; at?: number } {
  const mapping: Record<string, string> = {};
  const used = new Map<string, string>();
  for (const [i, c] of columns.entries()) {
    // The mapping names columns by header: two columns of one name cannot be told apart.
    const twin = columns.findIndex((d, j) => j !== i && d.header === c.header);
    if (twin >= 0 && (c.target !== "ignore" || columns[twin].target !== "ignore")) {
      return { at: c.target !== "ignore" ? i : twin, error: `Two columns are named “${c.header}”: rename one in the file, or import neither.` };
    }
    if (c.target === "attribute" && !ATTRIBUTE_NAME.test(c.attribute)) {
      return { at: i, error: `“${c.header}”: an attribute name begins with a lower-case letter and has only lower-case letters, digits and underscores (up to 40).` };
    }
    const target = c.target === "attribute" ? `attributes.${c.attribute}` : c.target;
    if (target !== "ignore") {
      if (used.has(target)) return { at: i, error: `“${used.get(target)}” and “${c.header}” are both imported as ${c.target === "attribute" ? `attribute ${c.attribute}` : LABEL[c.target]}; choose one.` };
      used.set(target, c.header);
    }
    mapping[c.header] = target;
  }
  if (!used.has("external_id") && !used.has("email")) return { error: "Choose a column for External ID or Email: each contact needs one of them." };
  return { mapping };
}
