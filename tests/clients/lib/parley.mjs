// The real Parley server for the client tests: `startParley()` starts build/parley (or
// $PARLEY_BINARY) on a loopback port with its own SQLite data folder, and `admin()` runs
// `parley admin ...` against that folder and returns its JSON. Each test file starts its own server
// and stops it in an `after` hook; the folder is removed unless PARLEY_KEEP_TEST_DATA is set.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const parleyBinary = process.env.PARLEY_BINARY ?? join(root, 'build/parley');

export async function startParley({ env = {}, args = [] } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-clients-'));
  const logPath = join(dataDir, 'server.log');
  const serverEnv = {
    ...process.env,
    PARLEY_DATA_DIR: dataDir,
    PARLEY_LOG_FLUSH_MS: '0',
    ...env,
  };
  delete serverEnv.PARLEY_DATABASE_URL;
  const { openSync } = await import('node:fs');
  const log = openSync(logPath, 'a');
  const child = spawn(parleyBinary, ['serve', '--listen', '127.0.0.1:0', ...args], {
    env: serverEnv,
    stdio: ['ignore', 'ignore', log],
  });
  let exited = null;
  child.on('exit', (code, signal) => { exited = { code, signal }; });

  let port = null;
  for (let i = 0; i < 3000 && port === null; ++i) {
    const text = readFileSync(logPath, 'utf8');
    const m = text.match(/"msg":"listening","address":"[^"]*:(\d+)"/);
    if (m) port = Number(m[1]);
    else if (exited) throw new Error(`parley exited at start: ${text}`);
    else await new Promise((r) => setTimeout(r, 10));
  }
  if (port === null) throw new Error(`parley did not start: ${readFileSync(logPath, 'utf8')}`);

  const admin = (...adminArgs) => {
    const out = execFileSync(parleyBinary, ['admin', ...adminArgs], {
      env: serverEnv,
      encoding: 'utf8',
    });
    return JSON.parse(out);
  };

  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dataDir,
    admin,
    log: () => readFileSync(logPath, 'utf8'),
    // An account with one agent and one key (all scopes unless `scopes` is given).
    account({ plan = 'enterprise', agentSettings, scopes } = {}) {
      const accountId = admin('account', 'create', '--name', 'Client test', '--plan', plan).id;
      const agentArgs = ['agent', 'create', '--account', accountId, '--name', 'Client test agent'];
      if (agentSettings) agentArgs.push('--settings', JSON.stringify(agentSettings));
      const agentId = admin(...agentArgs).id;
      const keyArgs = ['key', 'create', '--account', accountId, '--name', 'client test key'];
      if (scopes) keyArgs.push('--scopes', scopes);
      const key = admin(...keyArgs).key;
      return { accountId, agentId, key };
    },
    async stop() {
      if (!exited) {
        child.kill('SIGTERM');
        await new Promise((r) => (exited ? r() : child.once('exit', r)));
      }
      if (!process.env.PARLEY_KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
