// The typed TypeScript client (sdk/typescript, built from docs/openapi.yaml by
// scripts/build-sdk.sh, which test-clients.sh runs first): its tour of the API against the real
// server, the streamed forms, errors, and the hand-written parts — retries that honour
// Retry-After, one Idempotency-Key per write kept across its retries — against a loopback stand-in
// that answers what the test scripts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { startParley } from '../lib/parley.mjs';
import {
  createParleyClient, ParleyError, readServerSentEvents, retryAfterMs,
} from '../../../sdk/typescript/dist/index.js';
import { tour } from '../../../sdk/typescript/build-tour/tour/tour.js';

const parley = await startParley();
after(() => parley.stop());

// A loopback server answering each request with the next scripted answer (the last repeats);
// records the requests. An answer { drop: true } closes the connection without answering.
async function standIn(script) {
  const seen = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, headers: req.headers, body });
      const a = script[Math.min(seen.length, script.length) - 1];
      if (a.drop) return req.socket.destroy();
      res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
      res.end(JSON.stringify(a.body ?? {}));
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  after(() => server.close());
  return { baseUrl: `http://127.0.0.1:${server.address().port}`, seen };
}

test('the tour: agents, a source trained, JSON, text and event replies, conversations, contacts', async () => {
  const { agentId, key } = parley.account({ agentSettings: { showSources: true } });
  const r = await tour(parley.baseUrl, key, agentId);
  assert.deepEqual(r.agentNames, ['Client test agent', 'Client test agent']);
  assert.equal(r.sourceResult, 'created');
  assert.equal(r.trained, true);
  assert.match(r.reply, /nine to five/);
  assert.match(r.conversationId, /^cnv_/);
  assert.match(r.streamedText, /nine to five/);
  assert.equal(r.streamedConversationId, r.conversationId);
  assert.deepEqual([r.events[0], ...r.events.slice(-2)], ['meta', 'blocks', 'done']);
  assert.ok(r.events.includes('text'));
  assert.match(r.eventText, /weekdays/);
  assert.equal(r.conversationMessages, 4, 'two turns of the conversation, each question and reply once');
  assert.equal(r.conversationsListed, 2);
  assert.equal(r.contactResult, 'created');
  assert.equal(r.contactFound, 'sdk-tour-1');
  assert.equal(r.replayed, 'true', 'the same Idempotency-Key sent twice is answered from the first');
});

test('an error of the API is typed data on api calls and a ParleyError from the stream helpers', async () => {
  const { key } = parley.account();
  const client = createParleyClient({ baseUrl: parley.baseUrl, apiKey: key });
  const { data, error, response } = await client.api.GET('/api/v1/agents/{agentId}', {
    params: { path: { agentId: 'agt_nope' } },
  });
  assert.equal(data, undefined);
  assert.equal(response.status, 404);
  assert.equal(error.error.code, 'not_found');
  await assert.rejects(client.chatText('agt_nope', { message: 'hi' }), (e) =>
    e instanceof ParleyError && e.status === 404 && e.code === 'not_found' && /^req_/.test(e.requestId));
  const wrong = createParleyClient({ baseUrl: parley.baseUrl, apiKey: 'svc_live_' + 'x'.repeat(32) });
  const events = wrong.chatEvents('agt_nope', { message: 'hi' });
  await assert.rejects(events.next(), (e) => e instanceof ParleyError && e.status === 401);
});

test('every write gets an Idempotency-Key, kept across the retries of a 503', async () => {
  const s = await standIn([
    { status: 503, headers: { 'retry-after': '0' }, body: { error: { code: 'unavailable', message: 'busy' } } },
    { status: 201, body: { id: 'src_1', result: 'created' } },
  ]);
  const client = createParleyClient({ baseUrl: s.baseUrl, apiKey: 'k' });
  const { data } = await client.api.POST('/api/v1/agents/{agentId}/sources', {
    params: { path: { agentId: 'agt_1' } }, body: { type: 'text', title: 't', content: 'c' },
  });
  assert.equal(data.result, 'created');
  assert.equal(s.seen.length, 2);
  const keys = s.seen.map((r) => r.headers['idempotency-key']);
  assert.match(keys[0], /^[0-9a-f-]{36}$/);
  assert.equal(keys[1], keys[0]);
  assert.equal(s.seen[1].body, s.seen[0].body);
  assert.equal(s.seen[0].headers.authorization, 'Bearer k');
});

test('a 429 is retried after its Retry-After; a wait past the limit is handed back', async () => {
  const s = await standIn([
    { status: 429, headers: { 'retry-after': '1' }, body: { error: { code: 'rate_limited', message: 'slow down' } } },
    { status: 200, body: { data: [] } },
  ]);
  const client = createParleyClient({ baseUrl: s.baseUrl, apiKey: 'k' });
  const { data } = await client.api.GET('/api/v1/agents');
  assert.deepEqual(data, { data: [] });
  assert.equal(s.seen.length, 2);

  const long = await standIn([
    { status: 429, headers: { 'retry-after': '120' }, body: { error: { code: 'rate_limited', message: 'later' } } },
  ]);
  const patient = createParleyClient({ baseUrl: long.baseUrl, apiKey: 'k', maxRetryDelayMs: 5000 });
  const refused = await patient.api.GET('/api/v1/agents');
  assert.equal(refused.response.status, 429);
  assert.equal(refused.error.error.code, 'rate_limited');
  assert.equal(long.seen.length, 1);
  await assert.rejects(patient.chatText('agt_1', { message: 'hi' }), (e) =>
    e instanceof ParleyError && e.status === 429 && e.retryAfterMs === 120000);
});

test('a dropped connection is retried for a GET and a keyed write, never for an unkeyed write', async () => {
  const s = await standIn([{ drop: true }, { status: 200, body: { data: [] } }]);
  const client = createParleyClient({ baseUrl: s.baseUrl, apiKey: 'k', backoffMs: 1 });
  assert.deepEqual((await client.api.GET('/api/v1/agents')).data, { data: [] });
  assert.equal(s.seen.length, 2);

  const w = await standIn([{ drop: true }, { status: 201, body: { id: 'src_1', result: 'created' } }]);
  const unkeyed = createParleyClient({ baseUrl: w.baseUrl, apiKey: 'k', backoffMs: 1, idempotencyKeys: false });
  await assert.rejects(unkeyed.api.POST('/api/v1/agents/{agentId}/sources', {
    params: { path: { agentId: 'agt_1' } }, body: { type: 'text', title: 't', content: 'c' },
  }));
  assert.equal(w.seen.length, 1);
});

test('Retry-After reads seconds and HTTP dates', () => {
  assert.equal(retryAfterMs('3'), 3000);
  assert.equal(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z')), 10000);
  assert.equal(retryAfterMs('soon'), undefined);
  assert.equal(retryAfterMs(null), undefined);
});

test('the event reader joins lines split across reads, CRLF and multi-byte characters', async () => {
  const bytes = new TextEncoder().encode(': keep-alive\r\n\r\nevent: text\r\ndata: {"delta":"caf\u00e9"}\r\n\r\nevent: done\ndata: {}\n\n');
  // One byte per read: every boundary falls somewhere awkward, the é's two bytes included.
  const body = new ReadableStream({
    start(c) { for (const b of bytes) c.enqueue(new Uint8Array([b])); c.close(); },
  });
  const got = [];
  for await (const e of readServerSentEvents(body)) got.push(e);
  assert.deepEqual(got, [
    { event: 'text', data: '{"delta":"café"}' },
    { event: 'done', data: '{}' },
  ]);
});
