// Verifies webhook deliveries captured by the end-to-end tests with the Standard Webhooks
// reference library. Input: a JSON file [{secret, id, timestamp, signature, body}, ...].
// Exit code 0 when every delivery verifies, 1 otherwise.
import { readFileSync } from "node:fs";
import { Webhook } from "standardwebhooks";

const deliveries = JSON.parse(readFileSync(process.argv[2], "utf8"));
let failed = 0;
for (const d of deliveries) {
  const wh = new Webhook(d.secret);
  const headers = { "webhook-id": d.id, "webhook-timestamp": d.timestamp, "webhook-signature": d.signature };
  try {
    const payload = wh.verify(d.body, headers);
    if (payload.id !== d.id) throw new Error(`body id ${payload.id} differs from webhook-id ${d.id}`);
  } catch (e) {
    failed++;
    console.error(`delivery ${d.id}: ${e.message}`);
  }
  // A tampered body must not verify.
  try {
    wh.verify(d.body + " ", headers);
    failed++;
    console.error(`delivery ${d.id}: a tampered body verified`);
  } catch (e) {}
}
console.log(JSON.stringify({ verified: deliveries.length - failed, failed }));
process.exit(failed === 0 && deliveries.length > 0 ? 0 : 1);
