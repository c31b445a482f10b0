// The MCP server (POST /mcp) driven by the official MCP SDK's Client over its
// StreamableHTTPClientTransport, and by the MCP Inspector's CLI mode: tools listed per key scope,
// each tool called (its structured result checked by the SDK against the tool's outputSchema),
// tool errors, protocol errors and a refused key.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startParley } from '../lib/parley.mjs';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const inspectorDir = join(dirname(require.resolve('@modelcontextprotocol/inspector-cli/package.json')), 'build');
const inspectorCli = join(inspectorDir, 'cli.js');

const parley = await startParley();
after(() => parley.stop());

let account;
before(async () => {
  account = parley.account({ agentSettings: { showSources: true } });
  const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
  const added = await fetch(`${parley.baseUrl}/api/v1/agents/${account.agentId}/sources`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      type: 'text',
      title: 'Returns policy',
      content: 'Returns are accepted within 30 days of delivery. Refunds go back to the original payment method.',
    }),
  });
  assert.ok(added.status < 300, await added.text());
  for (let i = 0; ; ++i) {
    const r = await fetch(`${parley.baseUrl}/api/v1/agents/${account.agentId}/sources`, { headers });
    if ((await r.json()).training?.done === true) break;
    assert.ok(i < 1000, 'training did not finish');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
});

async function connect(key) {
  const client = new Client({ name: 'parley-client-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${parley.baseUrl}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  return client;
}

function keyWith(scopes) {
  return parley.admin('key', 'create', '--account', account.accountId, '--name', scopes, '--scopes', scopes).key;
}

test('the SDK client connects and lists every tool for a key with every scope', async () => {
  const client = await connect(account.key);
  try {
    assert.equal(client.getServerVersion().name, 'parley');
    assert.ok(client.getServerCapabilities().tools);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name), [
      'list_agents', 'ask_agent', 'search_knowledge', 'list_conversations', 'get_conversation',
      'list_leads', 'find_contact', 'upsert_contact',
    ]);
    for (const t of tools) {
      assert.equal(t.inputSchema.type, 'object', t.name);
      assert.equal(t.outputSchema.type, 'object', t.name);
    }
    await client.ping();
  } finally {
    await client.close();
  }
});

test('tools are listed only when the key\'s scopes allow them', async () => {
  const names = async (scopes) => {
    const client = await connect(keyWith(scopes));
    try {
      return (await client.listTools()).tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  };
  assert.deepEqual(await names('chat'), ['ask_agent']);
  assert.deepEqual(await names('conversations:read'), ['list_conversations', 'get_conversation']);
  assert.deepEqual(await names('leads:read,contacts:write'), ['list_leads', 'find_contact', 'upsert_contact']);
  assert.deepEqual(await names('sources:read'), ['search_knowledge']);
});

test('each tool answers with structured content that matches its output schema', async () => {
  const client = await connect(account.key);
  try {
    await client.listTools();  // the SDK validates structured results against these schemas
    const agents = await client.callTool({ name: 'list_agents', arguments: {} });
    assert.deepEqual(agents.structuredContent.data.map((a) => a.id), [account.agentId]);

    const first = await client.callTool({
      name: 'ask_agent',
      arguments: { agentId: account.agentId, message: 'How many days do I have for returns?' },
    });
    assert.equal(first.isError, false);
    assert.match(first.structuredContent.reply, /30 days/);
    assert.deepEqual(first.structuredContent.sources, [{ title: 'Returns policy', url: null }]);
    const conversationId = first.structuredContent.conversationId;
    assert.match(conversationId, /^cnv_/);
    assert.deepEqual(JSON.parse(first.content[0].text), first.structuredContent);

    const second = await client.callTool({
      name: 'ask_agent',
      arguments: { agentId: account.agentId, message: 'And the refunds?', conversationId },
    });
    assert.equal(second.structuredContent.conversationId, conversationId);

    const conversation = await client.callTool({ name: 'get_conversation', arguments: { conversationId } });
    assert.equal(conversation.structuredContent.data.messages.length, 4);
    assert.equal(conversation.structuredContent.data.channel, 'api');

    const page = await client.callTool({
      name: 'list_conversations',
      arguments: { agentId: account.agentId, limit: 5 },
    });
    assert.deepEqual(page.structuredContent.data.map((c) => c.id), [conversationId]);

    const found = await client.callTool({
      name: 'search_knowledge',
      arguments: { agentId: account.agentId, query: 'refunds payment method', limit: 2 },
    });
    assert.equal(found.structuredContent.data[0].title, 'Returns policy');
    assert.match(found.structuredContent.data[0].text, /original payment method/);

    const created = await client.callTool({
      name: 'upsert_contact',
      arguments: { agentId: account.agentId, email: 'grace@example.com', name: 'Grace', attributes: { plan: 'pro' } },
    });
    assert.equal(created.structuredContent.result, 'created');
    const contact = await client.callTool({
      name: 'find_contact',
      arguments: { agentId: account.agentId, email: 'GRACE@example.com' },
    });
    assert.equal(contact.structuredContent.data.id, created.structuredContent.data.id);
    assert.deepEqual(contact.structuredContent.data.attributes, { plan: 'pro' });

    const leads = await client.callTool({ name: 'list_leads', arguments: { agentId: account.agentId } });
    assert.deepEqual(leads.structuredContent, { data: [], hasMore: false, nextCursor: null });
  } finally {
    await client.close();
  }
});

test('tool errors are results with isError and a message naming the argument', async () => {
  const client = await connect(account.key);
  try {
    const missing = await client.callTool({ name: 'ask_agent', arguments: { agentId: account.agentId } });
    assert.equal(missing.isError, true);
    assert.match(missing.content[0].text, /'message' is required/);

    const unknownAgent = await client.callTool({
      name: 'ask_agent',
      arguments: { agentId: 'agt_doesnotexist', message: 'hello' },
    });
    assert.equal(unknownAgent.isError, true);
    assert.match(unknownAgent.content[0].text, /No agent agt_doesnotexist/);
    assert.deepEqual(unknownAgent._meta, { 'parley/error': { code: 'not_found' } });

    const badLimit = await client.callTool({
      name: 'search_knowledge',
      arguments: { agentId: account.agentId, query: 'returns', limit: 500 },
    });
    assert.equal(badLimit.isError, true);
    assert.match(badLimit.content[0].text, /'limit'/);

    const badEmail = await client.callTool({
      name: 'upsert_contact',
      arguments: { agentId: account.agentId, email: 'nope' },
    });
    assert.match(badEmail.content[0].text, /'email'/);

    await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {} }), (err) => {
      assert.equal(err.code, -32602);
      assert.match(err.message, /Unknown tool 'no_such_tool'/);
      return true;
    });
  } finally {
    await client.close();
  }
});

test('a tool outside the key\'s scopes is refused as a tool error naming the scope', async () => {
  const client = await connect(keyWith('agents:read'));
  try {
    const r = await client.callTool({ name: 'upsert_contact', arguments: { agentId: account.agentId, email: 'a@example.com' } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /'contacts:write' scope/);
  } finally {
    await client.close();
  }
});

test('an unknown key is refused with 401 before any tool', async () => {
  await assert.rejects(connect(`svc_live_${'b'.repeat(32)}`), /unknown or has been revoked/);
});

test('the MCP Inspector CLI lists the tools and calls one', async () => {
  const common = [inspectorCli, '--cli', `${parley.baseUrl}/mcp`, '--transport', 'http',
    '--header', `Authorization: Bearer ${account.key}`];
  // Run from its own folder: 1.0.3 finds its package.json relative to the working directory.
  const options = { cwd: inspectorDir };
  const listed = await run(process.execPath, [...common, '--method', 'tools/list'], options);
  assert.ok(JSON.parse(listed.stdout).tools.some((t) => t.name === 'ask_agent'));

  const called = await run(process.execPath, [...common, '--method', 'tools/call', '--tool-name', 'search_knowledge',
    '--tool-arg', `agentId=${account.agentId}`, 'query=returns within days'], options);
  const result = JSON.parse(called.stdout);
  assert.equal(result.isError, false);
  assert.equal(result.structuredContent.data[0].title, 'Returns policy');
});
