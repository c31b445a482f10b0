// The harness itself: a server starts, an account with a key is made, the key is accepted.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startParley } from '../lib/parley.mjs';

const parley = await startParley();
after(() => parley.stop());

test('an account made with the admin CLI can list its agents with its key', async () => {
  const { agentId, key } = parley.account();
  const res = await fetch(`${parley.baseUrl}/api/v1/agents`, {
    headers: { authorization: `Bearer ${key}` },
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(body.data.map((a) => a.id), [agentId]);
});
