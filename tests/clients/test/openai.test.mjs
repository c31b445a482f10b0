// The OpenAI-compatible endpoint (/openai/v1) driven by the official `openai` package and the
// Vercel AI SDK's OpenAI-compatible provider, against the real server: the model list, a JSON
// reply, a streamed reply read through each SDK's iterator, a conversation continued over three
// turns (each message stored once), and each error the issue names.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, jsonSchema, streamText, tool } from 'ai';
import { startParley } from '../lib/parley.mjs';

const parley = await startParley({ env: { PARLEY_RATE_LIMIT_PER_MINUTE: '1000000' } });
after(() => parley.stop());

const question = 'What are your opening hours?';
const answer = 'We are open 9 to 5, Monday to Friday.';
let account;
let client;

// The agent learns one Q&A pair through the API and is trained on it before the tests run.
before(async () => {
  account = parley.account({ agentSettings: { showSources: true } });
  const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
  const base = `${parley.baseUrl}/api/v1/agents/${account.agentId}/sources`;
  const added = await fetch(base, { method: 'POST', headers, body: JSON.stringify({ type: 'qa', question, answer }) });
  assert.equal(added.status, 201);
  for (let i = 0; i < 500; ++i) {
    const listed = await (await fetch(base, { headers })).json();
    if (listed.training.done) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  client = new OpenAI({ apiKey: account.key, baseURL: `${parley.baseUrl}/openai/v1`, maxRetries: 0 });
});

const aiProvider = (key) => createOpenAICompatible({
  name: 'parley',
  baseURL: `${parley.baseUrl}/openai/v1`,
  apiKey: key,
  includeUsage: true,
});

test('openai: models.list gives the account\'s agents and models.retrieve one of them', async () => {
  const second = parley.admin('agent', 'create', '--account', account.accountId, '--name', 'Second').id;
  const ids = [];
  for await (const model of client.models.list()) ids.push(model.id);
  assert.deepEqual(ids.sort(), [account.agentId, second].sort());
  const one = await client.models.retrieve(account.agentId);
  assert.equal(one.id, account.agentId);
  assert.equal(one.object, 'model');
});

test('openai: a JSON completion answers from the agent\'s knowledge, with Parley\'s extras', async () => {
  const completion = await client.chat.completions.create({
    model: account.agentId,
    messages: [{ role: 'user', content: question }],
  });
  assert.equal(completion.object, 'chat.completion');
  assert.equal(completion.choices[0].message.role, 'assistant');
  assert.equal(completion.choices[0].message.content, answer);
  assert.equal(completion.choices[0].finish_reason, 'stop');
  assert.ok(completion.usage.total_tokens > 0);
  assert.match(completion.parley.conversationId, /^cnv_/);
  assert.deepEqual(completion.parley.sources, [{ title: question, url: null }]);
});

test('openai: a streamed completion read through the SDK\'s iterator', async () => {
  const stream = await client.chat.completions.create({
    model: account.agentId,
    messages: [{ role: 'user', content: question }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = '';
  let finish = null;
  let usage = null;
  for await (const chunk of stream) {
    assert.equal(chunk.object, 'chat.completion.chunk');
    if (chunk.choices.length > 0) {
      text += chunk.choices[0].delta.content ?? '';
      finish = chunk.choices[0].finish_reason ?? finish;
    }
    if (chunk.usage) usage = chunk.usage;
  }
  assert.equal(text, answer);
  assert.equal(finish, 'stop');
  assert.ok(usage.completion_tokens > 0);
});

test('openai: three turns with `user` continue one conversation that stores each message once', async () => {
  const messages = [];
  let conversationId = null;
  for (const q of [question, 'And on Saturday?', 'Thanks!']) {
    messages.push({ role: 'user', content: q });
    const completion = await client.chat.completions.create({ model: account.agentId, user: 'customer-3', messages });
    conversationId ??= completion.parley.conversationId;
    assert.equal(completion.parley.conversationId, conversationId);
    messages.push({ role: 'assistant', content: completion.choices[0].message.content });
  }
  const stored = parley.admin('conversation', 'get', conversationId);
  assert.equal(stored.channel, 'api');
  assert.deepEqual(stored.messages.map((m) => [m.role, m.content]), messages.map((m) => [m.role, m.content]));
});

test('openai: each error is the SDK\'s error class with OpenAI\'s fields', async () => {
  const ask = { messages: [{ role: 'user', content: question }] };
  const bad = new OpenAI({ apiKey: `svc_live_${'x'.repeat(32)}`, baseURL: `${parley.baseUrl}/openai/v1`, maxRetries: 0 });
  await assert.rejects(bad.chat.completions.create({ model: account.agentId, ...ask }),
    (e) => e instanceof OpenAI.AuthenticationError && e.status === 401 && e.code === 'invalid_api_key');
  await assert.rejects(client.chat.completions.create({ model: 'gpt-4o', ...ask }),
    (e) => e instanceof OpenAI.NotFoundError && e.code === 'model_not_found' && e.param === 'model');
  await assert.rejects(client.chat.completions.create({ model: account.agentId, n: 2, ...ask }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'n' && e.code === 'unsupported_parameter');
  const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
  await assert.rejects(client.chat.completions.create({ model: account.agentId, tools, ...ask }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'tools' && /tools/.test(e.message));
  await assert.rejects(client.chat.completions.create({ model: account.agentId, logprobs: true, ...ask }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'logprobs');
  await assert.rejects(client.chat.completions.create({ model: account.agentId, temperature: 9, ...ask }),
    (e) => e instanceof OpenAI.BadRequestError && e.param === 'temperature');
  const readOnly = parley.admin('key', 'create', '--account', account.accountId, '--name', 'ro', '--scopes', 'agents:read').key;
  const limitedClient = new OpenAI({ apiKey: readOnly, baseURL: `${parley.baseUrl}/openai/v1`, maxRetries: 0 });
  await assert.rejects(limitedClient.chat.completions.create({ model: account.agentId, ...ask }),
    (e) => e instanceof OpenAI.PermissionDeniedError && e.code === 'insufficient_scope');
});

test('openai: past the key\'s rate limit the SDK sees 429 with Retry-After', async () => {
  const limited = await startParley({ env: { PARLEY_RATE_LIMIT_PER_MINUTE: '1' } });
  try {
    const acc = limited.account();
    const c = new OpenAI({ apiKey: acc.key, baseURL: `${limited.baseUrl}/openai/v1`, maxRetries: 0 });
    // The second request of a minute is refused; a third covers a minute that ended in between.
    let refused = null;
    for (let i = 0; i < 3 && !refused; ++i) {
      try {
        await c.chat.completions.create({ model: acc.agentId, messages: [{ role: 'user', content: 'Hi' }] });
      } catch (e) {
        refused = e;
      }
    }
    assert.ok(refused instanceof OpenAI.RateLimitError, String(refused));
    assert.equal(refused.status, 429);
    assert.equal(refused.code, 'rate_limit_exceeded');
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
  } finally {
    await limited.stop();
  }
});

test('AI SDK: generateText and streamText through the OpenAI-compatible provider', async () => {
  const model = aiProvider(account.key).chatModel(account.agentId);
  const generated = await generateText({ model, prompt: question, maxRetries: 0 });
  assert.equal(generated.text, answer);
  assert.equal(generated.finishReason, 'stop');
  assert.ok(generated.usage.outputTokens > 0);

  const streamed = streamText({ model, prompt: question, maxRetries: 0 });
  let text = '';
  for await (const piece of streamed.textStream) text += piece;
  assert.equal(text, answer);
  assert.equal(await streamed.finishReason, 'stop');
});

test('AI SDK: three turns with a `user` continue one conversation', async () => {
  const model = aiProvider(account.key).chatModel(account.agentId);
  const messages = [];
  for (const q of [question, 'Open on Sunday?', 'Bye']) {
    messages.push({ role: 'user', content: q });
    const result = await generateText({ model, messages, maxRetries: 0, providerOptions: { parley: { user: 'ai-sdk-user' } } });
    messages.push({ role: 'assistant', content: result.text });
  }
  const conversations = await (await fetch(`${parley.baseUrl}/api/v1/agents/${account.agentId}/conversations?limit=100`, {
    headers: { authorization: `Bearer ${account.key}` },
  })).json();
  const ours = [];
  for (const c of conversations.data) {
    const stored = parley.admin('conversation', 'get', c.id);
    if (stored.messages[0]?.content === question && stored.messages.length === 6 && stored.messages[2].content === 'Open on Sunday?') ours.push(stored);
  }
  assert.equal(ours.length, 1);
  assert.deepEqual(ours[0].messages.map((m) => m.content), messages.map((m) => m.content));
});

test('AI SDK: errors reach the caller as API call errors with their status', async () => {
  const model = aiProvider(account.key).chatModel('gpt-4o');
  await assert.rejects(generateText({ model, prompt: 'Hi', maxRetries: 0 }),
    (e) => e.statusCode === 404 && /gpt-4o/.test(e.message));
  const bad = aiProvider(`svc_live_${'z'.repeat(32)}`).chatModel(account.agentId);
  await assert.rejects(generateText({ model: bad, prompt: 'Hi', maxRetries: 0 }), (e) => e.statusCode === 401);
  const unsupported = aiProvider(account.key).chatModel(account.agentId);
  await assert.rejects(
    generateText({
      model: unsupported,
      prompt: 'Hi',
      maxRetries: 0,
      tools: { lookup: tool({ description: 'Looks a word up', inputSchema: jsonSchema({ type: 'object', properties: {} }) }) },
    }),
    (e) => e.statusCode === 400 && /tools/.test(e.message));
});
