// Files and contacts from files: "Upload files" sends a PDF and a DOCX picked together and a
// Markdown file dropped on the sources list, each with its own progress bar, and they are trained;
// an image is refused with the server's reason. "Import contacts" maps a CSV file's columns and
// shows the report; importing the same file again changes nothing. By accessible names.
import { expect, test } from "@playwright/test";
import { checkPage } from "./axe";
import { docx, pdf } from "./files";
import { signIn, startParley, type Parley } from "./server";

let parley: Parley;
test.beforeAll(async () => {
  // Uploads up to 64 KiB, so a file over the limit is quick to make.
  parley = await startParley({ serveArgs: ["--upload-max-bytes", "65536"] });
});
test.afterAll(async () => {
  await parley?.stop();
});

// The first bytes of a PNG image: the server reads the type from the content.
const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex");

test("Upload files: a PDF and a DOCX picked, a Markdown file dropped, each with its progress bar, trained; an image refused", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/knowledge`);
  await expect(page.getByText("No sources yet.")).toBeVisible();

  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload files" }).click();
  await (await chooser).setFiles([
    { name: "menu.pdf", mimeType: "application/pdf", buffer: pdf("Harbour menu", ["Fish soup costs 12 EUR.", "Cloudberry cake costs 7 EUR."]) },
    { name: "hours.docx", mimeType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      buffer: docx("Opening hours", "When we are open", ["Monday to Friday from 9 to 17.", "Closed on Sundays."]) },
    { name: "photo.png", mimeType: "image/png", buffer: PNG },
  ]);

  const uploads = page.getByRole("region", { name: "Uploads" });
  for (const name of ["menu.pdf", "hours.docx", "photo.png"]) await expect(uploads.getByRole("progressbar", { name })).toBeVisible();
  const item = (name: string) => uploads.getByRole("listitem").filter({ hasText: name });
  await expect(item("menu.pdf")).toContainText("Added as “Harbour menu”.");
  await expect(item("hours.docx")).toContainText("Added as “Opening hours”.");
  await expect(item("photo.png")).toContainText("Unsupported file type: image/png.");
  await expect(uploads.getByRole("progressbar", { name: "menu.pdf" })).toHaveJSProperty("position", 1);
  await expect(uploads.getByRole("status")).toHaveText("Uploads finished: 2 added, 1 refused.");

  // A file dropped on the sources list is uploaded the same way.
  const sources = page.getByRole("region", { name: "Sources" });
  const dropped = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(["# Allergens\n\nAll our soups are gluten free.\n"], "allergens.md", { type: "text/markdown" }));
    return data;
  });
  await sources.dispatchEvent("dragover", { dataTransfer: dropped });
  await sources.dispatchEvent("drop", { dataTransfer: dropped });
  await expect(uploads.getByRole("progressbar", { name: "allergens.md" })).toBeVisible();
  await expect(item("allergens.md")).toContainText("Added");
  await expect(uploads.getByRole("status")).toHaveText("Uploads finished: 3 added, 1 refused.");

  // Each file is a source with its file name, trained.
  for (const [title, filename] of [["Harbour menu", "menu.pdf"], ["Opening hours", "hours.docx"]]) {
    const row = sources.getByRole("row").filter({ hasText: title });
    await expect(row).toContainText(filename);
    await expect(row.getByRole("cell").nth(1)).toHaveText("file");
    await expect(row.getByRole("cell").nth(3)).toHaveText("trained", { timeout: 15_000 });
  }
  await expect(sources.getByRole("row").filter({ hasText: "allergens" }).getByRole("cell").nth(3)).toHaveText("trained", { timeout: 15_000 });
  await expect(sources.getByRole("row").filter({ hasText: "photo.png" })).toHaveCount(0);
  await checkPage(page, "agent-knowledge-uploads");

  await page.getByRole("button", { name: "Clear finished uploads" }).click();
  await expect(uploads).toHaveCount(0);
});

test("Upload files: a file over the server's size limit is refused with the limit", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/knowledge`);
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Upload files" }).click();
  await (await chooser).setFiles([{ name: "big.txt", mimeType: "text/plain", buffer: Buffer.alloc(300_000, "All soups are gluten free. ") }]);
  const item = page.getByRole("region", { name: "Uploads" }).getByRole("listitem").filter({ hasText: "big.txt" });
  await expect(item).toContainText("Too large: this server takes uploads of up to 64 KB.");
  await expect(page.getByRole("region", { name: "Sources" }).getByRole("row").filter({ hasText: "big.txt" })).toHaveCount(0);
});

const CSV = [
  "External ID,E-mail,Full name,Plan,Phone number",
  "c-1,ann@example.com,Ann Berg,gold,+4755501234",
  "c-2,bob@example.com,\"Lund, Bob\",silver,",
  "c-3,not-an-email,Cid,gold,",
  "c-4,dan@example.com,Dan Roe,bronze,12",
].join("\r\n") + "\r\n";

test("Import contacts: the columns mapped, the report with each refused row's reason; the same file again changes nothing", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/contacts`);
  await expect(page.getByText("No contacts yet.")).toBeVisible();

  const importOnce = async () => {
    await page.getByRole("button", { name: "Import contacts" }).click();
    const dialog = page.getByRole("dialog", { name: "Import contacts" });
    await dialog.getByLabel("CSV file").setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
    // Preset from the headers as the server would.
    await expect(dialog.getByLabel("External ID", { exact: true })).toHaveValue("external_id");
    await expect(dialog.getByLabel("E-mail", { exact: true })).toHaveValue("email");
    await expect(dialog.getByLabel("Plan", { exact: true })).toHaveValue("attribute");
    await expect(dialog.getByLabel("Attribute name for Plan")).toHaveValue("plan");
    await expect(dialog.getByLabel("Full name", { exact: true })).toHaveValue("attribute");
    await expect(dialog.getByRole("row").filter({ hasText: "Full name" })).toContainText("Ann Berg"); // the first row's value
    await dialog.getByLabel("Full name", { exact: true }).selectOption({ label: "Name" });
    await dialog.getByLabel("Phone number", { exact: true }).selectOption({ label: "Phone" });
    return dialog;
  };

  let dialog = await importOnce();
  await checkPage(page, "agent-contacts-import-mapping");
  await dialog.getByRole("button", { name: "Import" }).click();
  const report = dialog.getByRole("definition");
  await expect(dialog.getByRole("status")).toHaveText("Import finished: 4 rows read.");
  await expect(report).toHaveText(["2", "0", "0", "2"]); // created, updated, unchanged, refused
  const refused = dialog.getByRole("table", { name: "Refused rows" });
  await expect(refused.getByRole("row")).toHaveCount(3);
  // c-3 and c-4, the header being row 1.
  await expect(refused.getByRole("row").nth(1).getByRole("cell")).toHaveText(["4", "'email' must be a valid email address."]);
  await expect(refused.getByRole("row").nth(2).getByRole("cell")).toHaveText(["5", "'phone' must be 7 to 15 digits, optionally preceded by '+'."]);
  await checkPage(page, "agent-contacts-import-report");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Import contacts" })).toBeFocused();

  const ann = page.getByRole("row").filter({ hasText: "ann@example.com" });
  await expect(ann).toContainText("Ann Berg");
  await expect(ann).toContainText("+4755501234");
  await expect(ann).toContainText("c-1");
  await expect(ann).toContainText("plan: gold");
  await expect(page.getByRole("row").filter({ hasText: "bob@example.com" })).toContainText("Lund, Bob");
  await expect(page.locator("tbody tr")).toHaveCount(2);

  dialog = await importOnce();
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByRole("status")).toHaveText("Import finished: 4 rows read.");
  await expect(dialog.getByRole("definition")).toHaveText(["0", "0", "2", "2"]);
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.locator("tbody tr")).toHaveCount(2);
});

test("Import contacts: a mapping without External ID or Email is refused before sending", async ({ page }) => {
  await signIn(page, parley, `/agents/${parley.agentId}/contacts`);
  await page.getByRole("button", { name: "Import contacts" }).click();
  const dialog = page.getByRole("dialog", { name: "Import contacts" });
  await dialog.getByLabel("CSV file").setInputFiles({ name: "people.csv", mimeType: "text/csv", buffer: Buffer.from(CSV) });
  await dialog.getByLabel("External ID", { exact: true }).selectOption({ label: "Not imported" });
  await dialog.getByLabel("E-mail", { exact: true }).selectOption({ label: "Not imported" });
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Choose a column for External ID or Email: each contact needs one of them.");
  await dialog.getByLabel("E-mail", { exact: true }).selectOption({ label: "Email" });
  await dialog.getByLabel("Plan", { exact: true }).selectOption({ label: "Email" });
  await dialog.getByRole("button", { name: "Import" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("“E-mail” and “Plan” are both imported as Email; choose one.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
});
