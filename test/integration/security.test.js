'use strict';
// Secrets never leak: with --debug (stack traces, request details), on success and on
// error paths, with root and with STS session credentials, the secret access key and the
// session token appear neither in stdout or stderr nor in any file the run wrote under
// its state folder (XDG_STATE_HOME: journals), including the journal an interrupted
// run leaves behind.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { PutObjectCommand } = require('@aws-sdk/client-s3');
const { createBucket, uniqueBucket, putObjects, runCli, connection, testEnv, s3client, REPO_ROOT } = require('../helpers/s3env');
const { restrictedCredentials, credentialsEnv } = require('../helpers/sts');
const { startFaultProxy } = require('../helpers/fault-proxy');

const MiB = 1024 * 1024;
const WRONG_SECRET = 'wrongSecretForLeakTest+9f3c2a7d1e/0b';

let stateHome;
let src; // 60 small objects and one multipart-sized one
let denied; // a bucket the session credentials may not touch
let allowed = []; // targets the session credentials may use
let session; // STS credentials
let secrets; // [name, value]

function filesUnder(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

// The value and the forms a careless log line might carry it in.
const forms = (v) => [...new Set([v, encodeURIComponent(v), JSON.stringify(v).slice(1, -1), Buffer.from(v).toString('base64')])];

function expectNoSecrets(where, text) {
  for (const [name, value] of secrets) {
    for (const f of forms(value)) {
      // Named so a failure says what leaked where, never printing the whole text.
      expect({ where, leaked: text.includes(f) ? name : null }).toEqual({ where, leaked: null });
    }
  }
}

function expectCleanRun(r) {
  expectNoSecrets('stdout', r.stdout);
  expectNoSecrets('stderr', r.stderr);
  for (const f of filesUnder(stateHome)) expectNoSecrets(`state file ${path.relative(stateHome, f)}`, fs.readFileSync(f).toString('latin1'));
}

const run = (args, env = {}) => runCli(args, { env: { XDG_STATE_HOME: stateHome, ...env } });

beforeAll(async () => {
  stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-security-state-'));
  src = await createBucket(uniqueBucket('sec-src'));
  denied = await createBucket(uniqueBucket('sec-denied'));
  allowed = await Promise.all(Array.from({ length: 6 }, () => createBucket(uniqueBucket('sec-dst'))));
  await putObjects(src, Array.from({ length: 60 }, (_, i) => `k/${String(i).padStart(3, '0')}`));
  await s3client().send(new PutObjectCommand({ Bucket: src, Key: 'big/6mib.bin', Body: Buffer.alloc(6 * MiB, 7) }));
  session = await restrictedCredentials({ bucketsAllowed: [src, ...allowed] });
  secrets = [
    ['the root secret key', connection().secretAccessKey],
    ['the session secret key', session.secretAccessKey],
    ['the session token', session.sessionToken],
    ['the wrong secret key', WRONG_SECRET],
  ];
}, 60000);

afterAll(() => {
  fs.rmSync(stateHome, { recursive: true, force: true });
});

test('the leak check itself finds a secret in any of its forms (negative control)', () => {
  const [, secret] = secrets[0];
  expect(() => expectNoSecrets('x', `a ${secret} b`)).toThrow();
  expect(() => expectNoSecrets('x', `a ${encodeURIComponent(session.sessionToken)} b`)).toThrow();
  expect(() => expectNoSecrets('x', 'nothing here')).not.toThrow();
});

describe('root credentials, --debug', () => {
  test('ls', async () => {
    const r = await run(['ls', `s3://${src}`, '--debug', '--verbose']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')).toContain('k/000');
    expectCleanRun(r);
  });

  test('cp (small and multipart copies)', async () => {
    const dst = await createBucket(uniqueBucket('sec-root-cp'));
    const r = await run(['cp', `s3://${src}`, `s3://${dst}`, '--debug', '--verbose', '--large-copy-threshold', '5MiB', '--part-size', '5MiB']);
    expect(r.code).toBe(0);
    expectCleanRun(r);
  });

  test('sync', async () => {
    const dst = await createBucket(uniqueBucket('sec-root-sync'));
    await putObjects(dst, ['k/000', 'extra/1']);
    const r = await run(['sync', `s3://${src}`, `s3://${dst}`, '--debug', '--verbose', '--delete']);
    expect(r.code).toBe(0);
    expectCleanRun(r);
  });

  test('error path: a missing bucket (stack trace shown)', async () => {
    const r = await run(['cp', `s3://${src}-missing`, `s3://${allowed[0]}`, '--debug']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/does not exist/);
    expect(r.stderr).toMatch(/\n\s+at /); // --debug does show the stack
    expectCleanRun(r);
  });

  test.each([['ls'], ['cp'], ['sync']])('error path: wrong credentials (%s)', async (cmd) => {
    const args = cmd === 'ls' ? ['ls', `s3://${src}`] : [cmd, `s3://${src}`, `s3://${allowed[0]}`];
    const r = await run([...args, '--debug'], { AWS_SECRET_ACCESS_KEY: WRONG_SECRET });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/SignatureDoesNotMatch/);
    expectCleanRun(r);
  });
});

describe('STS session credentials, --debug', () => {
  test('ls', async () => {
    const r = await run(['ls', `s3://${src}`, '--debug', '--verbose'], credentialsEnv(session));
    expect(r.code).toBe(0);
    expectCleanRun(r);
  });

  test('cp', async () => {
    const r = await run(['cp', `s3://${src}`, `s3://${allowed[1]}`, '--debug', '--verbose', '--large-copy-threshold', '5MiB'], credentialsEnv(session));
    expect(r.code).toBe(0);
    expectCleanRun(r);
  });

  test('sync', async () => {
    const r = await run(['sync', `s3://${src}`, `s3://${allowed[2]}`, '--debug', '--verbose'], credentialsEnv(session));
    expect(r.code).toBe(0);
    expectCleanRun(r);
  });

  test('error path: a bucket the session may not read', async () => {
    const r = await run(['cp', `s3://${denied}`, `s3://${allowed[3]}`, '--debug'], credentialsEnv(session));
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/access denied/);
    expectCleanRun(r);
  });

  test('objects that fail are named, and their journal entries carry no secret', async () => {
    const r = await run(['cp', `s3://${src}`, '--to-bucket', allowed[4], '--debug', '--to-key',
      'js:(k) => { if (k.endsWith("7")) throw new Error("refused " + k); return "t/" + k; }'], credentialsEnv(session));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/failed "k\/007"/);
    expectCleanRun(r);
  });

  test('an interrupted cp leaves a journal, and it holds no secret', async () => {
    // Every request through the proxy is slowed so the run is surely mid-way at SIGINT.
    const proxy = await startFaultProxy({ target: connection().endpoint, rates: { slow: 1 }, slowMs: 250, seed: 3 });
    let copies = 0;
    let interrupt;
    const reached = new Promise((resolve) => { interrupt = resolve; });
    proxy.onRequest((info) => { if (info.type === 'COPY' && ++copies === 8) interrupt(); });
    try {
      const ownState = path.join(stateHome, 'interrupted');
      const env = { ...testEnv(), ...credentialsEnv(session), XDG_STATE_HOME: ownState };
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 's3blitz.js'), 'cp', `s3://${src}`, `s3://${allowed[5]}`,
        '--endpoint-url', proxy.endpoint, '--copy-concurrency', '2', '--debug'], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      const exited = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
      await Promise.race([reached, exited]);
      child.kill('SIGINT');
      const { code } = await exited;
      clearTimeout(timer);
      const r = { code, stdout, stderr };
      expect({ code, stderr }).toEqual({ code: 130, stderr: expect.stringMatching(/interrupted/) });
      const journals = filesUnder(ownState);
      expect(journals.length).toBeGreaterThan(0);
      expectCleanRun(r);
    } finally {
      await proxy.close();
    }
  });
});
