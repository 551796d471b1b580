'use strict';
// Every command against bad input: missing and forbidden buckets, missing, wrong and
// restricted credentials, an unreachable endpoint, bad URLs, js: that does not parse,
// bad numbers and ranges, a self-copy, an unwritable target folder, and a --to-key
// function that fails for some keys. Each case checks the documented exit code, that
// stderr has exactly the expected lines (one, for a fatal or usage error) with a clear
// message and no stack trace, that stdout is empty when the run was refused, and, where
// some objects fail, that every failed key is named and counted and the rest copied.
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');
const { createBucket, putObjects, sequentialList, runCli, uniqueBucket, connection } = require('../helpers/s3env');
const { restrictedCredentials, credentialsEnv } = require('../helpers/sts');
const { startFaultProxy } = require('../helpers/fault-proxy');

const STACK = /\n\s+at /;
const lines = (s) => (s === '' ? [] : s.replace(/\n$/, '').split('\n'));

// The commands, as functions of source (and target). list-buckets takes no location.
const COMMANDS = {
  ls: (s) => ['ls', s],
  summarize: (s) => ['summarize', s],
  each: (s) => ['each', s, '--map', 'js:(i)=>0'],
  map: (s) => ['map', s, '--map', 'js:(i)=>1', '--reduce', 'js:(a,b)=>a+b'],
  cp: (s, t) => ['cp', s, t],
  compare: (s, t) => ['compare', s, t],
  sync: (s, t) => ['sync', s, t],
};
const ALL = Object.keys(COMMANDS);
const TWO = ['cp', 'compare', 'sync'];
const LISTING = ALL; // every command lists a source

let stateHome;
let good; // readable bucket with a few objects
let other; // bucket the restricted credentials may use
let target; // empty bucket, a valid target
let restricted; // credentials for `other` only
let closedPort;
let scratch;

async function freeClosedPort() {
  const s = net.createServer();
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-bad-input-state-'));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-bad-input-'));
  fs.writeFileSync(path.join(scratch, 'a-file'), 'not a folder');
  [good, other, target] = await Promise.all([createBucket(uniqueBucket('good')), createBucket(uniqueBucket('other')), createBucket(uniqueBucket('target'))]);
  await putObjects(good, ['a/1.txt', 'a/2.txt', 'b/3.txt', 'c.txt']);
  await putObjects(other, ['o/1', 'o/2']);
  restricted = await restrictedCredentials({ bucketsAllowed: [other] });
  closedPort = await freeClosedPort();
}, 60000);

afterAll(() => {
  fs.rmSync(stateHome, { recursive: true, force: true });
  fs.rmSync(scratch, { recursive: true, force: true });
});

// Each run gets its own state folder (journals), so no case depends on another's leftovers.
const run = (args, env = {}, state = fs.mkdtempSync(path.join(stateHome, 'run-'))) => runCli(args, { env: { XDG_STATE_HOME: state, ...env } });

/** A refused run: the exit code, one line on stderr matching re, no stack, nothing on stdout. */
function expectRefused(r, code, re) {
  // One object so that a failure shows everything the run printed.
  expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code, stdout: '', stderr: expect.stringMatching(re) });
  expect(lines(r.stderr)).toHaveLength(1);
  expect(r.stderr).toMatch(/^s3blitz: \S/);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr).not.toMatch(/internal error|run with --debug/);
}

const MISSING = () => `missing-${uniqueBucket()}`.slice(0, 63);

describe('a bucket that does not exist: exit 3', () => {
  test.each(ALL)('%s: missing source bucket', async (cmd) => {
    const b = MISSING();
    const r = await run(COMMANDS[cmd](`s3://${b}/x/`, `s3://${target}/x/`));
    expectRefused(r, 3, new RegExp(`bucket "${b}" does not exist`));
  });
  test.each(TWO)('%s: missing target bucket', async (cmd) => {
    const b = MISSING();
    const r = await run(COMMANDS[cmd](`s3://${good}/a/`, `s3://${b}/a/`));
    expectRefused(r, 3, new RegExp(`bucket "${b}" does not exist`));
    if (cmd !== 'compare') expect(await sequentialList(target)).toEqual([]);
  });
});

describe('a bucket the credentials cannot read (STS session policy for another bucket): exit 3', () => {
  test('the restricted credentials work on their own bucket', async () => {
    const r = await run(['ls', `s3://${other}`], credentialsEnv(restricted));
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: 'o/1\no/2\n', stderr: '' });
  });
  test.each(ALL)('%s: forbidden source bucket', async (cmd) => {
    const r = await run(COMMANDS[cmd](`s3://${good}/`, `s3://${other}/copy/`), credentialsEnv(restricted));
    expectRefused(r, 3, new RegExp(`access denied to bucket "${good}"`));
  });
  test.each(TWO)('%s: forbidden target bucket', async (cmd) => {
    const r = await run(COMMANDS[cmd](`s3://${other}/o/`, `s3://${good}/o/`), credentialsEnv(restricted));
    expectRefused(r, 3, new RegExp(`access denied to bucket "${good}"`));
    expect((await sequentialList(good)).map((o) => o.Key)).toEqual(['a/1.txt', 'a/2.txt', 'b/3.txt', 'c.txt']);
  });
  test('list-buckets shows only what the session policy allows', async () => {
    const r = await run(['list-buckets'], credentialsEnv(restricted));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(other);
    expect(r.stdout).not.toContain(good);
  });
});

describe('credentials: exit 3', () => {
  const cases = [...ALL, 'list-buckets'];
  const argsFor = (cmd) => (cmd === 'list-buckets' ? ['list-buckets'] : COMMANDS[cmd](`s3://${good}/a/`, `s3://${target}/a/`));

  test.each(cases)('%s: no credentials at all', async (cmd) => {
    const r = await run(argsFor(cmd), { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined, AWS_SESSION_TOKEN: undefined, AWS_PROFILE: undefined });
    expectRefused(r, 3, /no AWS credentials found/);
  });
  test.each(cases)('%s: wrong secret key', async (cmd) => {
    const r = await run(argsFor(cmd), { AWS_SECRET_ACCESS_KEY: 'wrong-secret-0123456789abcdef' });
    expectRefused(r, 3, /secret key does not match the access key \(SignatureDoesNotMatch\)/);
  });
  test.each(cases)('%s: unknown access key', async (cmd) => {
    const r = await run(argsFor(cmd), { AWS_ACCESS_KEY_ID: 'AKIDNOSUCHUSER0000000' });
    expectRefused(r, 3, /access key is not recognised .*\(InvalidAccessKeyId\)/);
  });
});

describe('a fatal run leaves nothing that changes the next run', () => {
  // Every request slowed past the journal's 1 s flush interval: the failed run is not
  // over before its journal would have been written.
  test.each(['cp', 'sync'])('%s: the same failing command twice in one state folder prints the same one line', async (cmd) => {
    const proxy = await startFaultProxy({ target: connection().endpoint, rates: { slow: 1 }, slowMs: 1200 });
    try {
      const state = fs.mkdtempSync(path.join(stateHome, 'twice-'));
      const args = [...COMMANDS[cmd](`s3://${good}/a/`, `s3://${target}/a/`), '--endpoint-url', proxy.endpoint];
      const env = { AWS_SECRET_ACCESS_KEY: 'wrong-secret-0123456789abcdef' };
      const first = await run(args, env, state);
      expectRefused(first, 3, /SignatureDoesNotMatch/);
      const second = await run(args, env, state);
      expectRefused(second, 3, /SignatureDoesNotMatch/);
    } finally {
      await proxy.close();
    }
  });
});

describe('an unreachable endpoint (a closed loopback port): exit 3', () => {
  test.each([...ALL, 'list-buckets'])('%s', async (cmd) => {
    const endpoint = `http://127.0.0.1:${closedPort}`;
    const args = cmd === 'list-buckets' ? ['list-buckets'] : COMMANDS[cmd](`s3://${good}/a/`, `s3://${target}/a/`);
    const r = await run([...args, '--endpoint-url', endpoint]);
    expectRefused(r, 3, new RegExp(`cannot reach ${endpoint.replace(/\./g, '\\.')}.*ECONNREFUSED`));
  });
});

describe('an invalid s3:// URL: exit 2', () => {
  const BAD = ['s3://', 's3:/bucket/x', 's3://bad bucket/x', 's3://-/x'];
  test.each(ALL.flatMap((c) => BAD.map((u) => [c, u])))('%s: source %j', async (cmd, url) => {
    const r = await run(COMMANDS[cmd](url, `s3://${target}/x/`));
    expectRefused(r, 2, /invalid (S3 URL|location|bucket name)/);
  });
  test.each(TWO.flatMap((c) => BAD.map((u) => [c, u])))('%s: target %j', async (cmd, url) => {
    const r = await run(COMMANDS[cmd](`s3://${good}/a/`, url));
    expectRefused(r, 2, /invalid (S3 URL|location|bucket name)/);
  });
});

describe('a js: function that does not parse: exit 2', () => {
  const BAD_JS = 'js:(x) => {';
  const cases = [
    ['ls', (s) => ['ls', s, '--filter', BAD_JS], '--filter'],
    ['summarize', (s) => ['summarize', s, '--filter', BAD_JS], '--filter'],
    ['each', (s) => ['each', s, '--map', BAD_JS], '--map'],
    ['map', (s) => ['map', s, '--map', 'js:(i)=>1', '--reduce', BAD_JS], '--reduce'],
    ['map', (s) => ['map', s, '--map', BAD_JS, '--reduce', 'js:(a,b)=>a+b'], '--map'],
    ['cp', (s, t) => ['cp', s, '--to-bucket', t, '--to-key', BAD_JS], '--to-key'],
    ['compare', (s, t) => ['compare', s, '--to-bucket', t, '--to-key', BAD_JS], '--to-key'],
    ['sync', (s, t) => ['sync', s, '--to-bucket', t, '--filter', BAD_JS], '--filter'],
  ];
  test.each(cases)('%s: %#', async (cmd, args, option) => {
    const r = await run(args(`s3://${good}`, target));
    expectRefused(r, 2, new RegExp(`${option}: cannot parse the js: function`));
    expect(await sequentialList(target)).toEqual([]);
  });
  test('cp: a js: --to-key that is not a function', async () => {
    const r = await run(['cp', `s3://${good}`, '--to-bucket', target, '--to-key', 'js:42']);
    expectRefused(r, 2, /--to-key: the js: expression is number, not a function/);
  });
});

describe('bad concurrency values: exit 2', () => {
  const VALUES = ['abc', '-5', '0', '1.5', ''];
  test.each(LISTING.flatMap((c) => VALUES.map((v) => [c, v])))('%s --list-concurrency=%j', async (cmd, v) => {
    const r = await run([...COMMANDS[cmd](`s3://${good}`, `s3://${target}`), `--list-concurrency=${v}`]);
    expectRefused(r, 2, /--list-concurrency must be a positive whole number/);
  });
  test.each(['cp', 'sync'].flatMap((c) => VALUES.map((v) => [c, v])))('%s --copy-concurrency=%j', async (cmd, v) => {
    const r = await run([...COMMANDS[cmd](`s3://${good}`, `s3://${target}`), `--copy-concurrency=${v}`]);
    expectRefused(r, 2, /--copy-concurrency must be a positive whole number/);
    expect(await sequentialList(target)).toEqual([]);
  });
  test('a negative value given as a separate argument is still a usage error', async () => {
    const r = await run(['ls', `s3://${good}`, '--list-concurrency', '-5']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).not.toMatch(STACK);
  });
});

describe('--start-after at or after --stop-at: exit 2', () => {
  test.each(LISTING)('%s', async (cmd) => {
    const r = await run([...COMMANDS[cmd](`s3://${good}`, `s3://${target}`), '--start-after', 'b', '--stop-at', 'a']);
    expectRefused(r, 2, /--start-after \("b"\) is not before --stop-at \("a"\)/);
  });
  test('ls: equal bounds are an empty range too', async () => {
    const r = await run(['ls', `s3://${good}`, '--start-after', 'b', '--stop-at', 'b']);
    expectRefused(r, 2, /is not before --stop-at/);
  });
});

describe('copying a bucket onto itself with the same keys and no change: exit 2', () => {
  test.each([
    ['URLs', () => ['cp', `s3://${good}`, `s3://${good}`]],
    ['same prefix', () => ['cp', `s3://${good}/a/`, `s3://${good}/a/`]],
    ['--bucket/--to-bucket', () => ['cp', '--bucket', good, '--to-bucket', good]],
  ])('%s', async (name, args) => {
    const before = await sequentialList(good);
    const r = await run(args());
    expectRefused(r, 2, /onto itself with the same keys changes nothing/);
    expect(await sequentialList(good)).toEqual(before);
  });
});

describe('a target folder that cannot be written (a path under a regular file): exit 3', () => {
  test.each(['cp', 'sync'])('%s', async (cmd) => {
    const dir = path.join(scratch, 'a-file', 'sub');
    const r = await run(COMMANDS[cmd](`s3://${good}/a/`, dir));
    expectRefused(r, 3, /cannot create folder .*a-file\/sub: ENOTDIR/);
  });
  test('compare', async () => {
    const dir = path.join(scratch, 'a-file', 'sub');
    const r = await run(COMMANDS.compare(`s3://${good}/a/`, dir));
    expectRefused(r, 3, /cannot read folder .*a-file\/sub: ENOTDIR/);
  });
  test('ls of a source folder under a regular file', async () => {
    const r = await run(['ls', path.join(scratch, 'a-file', 'sub')]);
    expectRefused(r, 3, /cannot read folder .*ENOTDIR/);
  });
});

describe('a --to-key function that fails for some keys: exit 1, those keys named, the rest copied', () => {
  // Fails by throwing, by returning a non-string, an empty key, or a key over 1024 bytes.
  const TO_KEY = `js:(k) => {
    if (k.startsWith('throw/')) throw new Error('no target for ' + k);
    if (k.startsWith('num/')) return 42;
    if (k.startsWith('undef/')) return undefined;
    if (k.startsWith('empty/')) return '';
    if (k.startsWith('long/')) return 'x'.repeat(1025);
    if (k.startsWith('multibyte/')) return 'é'.repeat(513);
    return 'copied/' + k;
  }`;
  const GOOD_KEYS = Array.from({ length: 40 }, (_, i) => `ok/${String(i).padStart(3, '0')}.txt`).concat(['ok/x y+z.txt', 'ok/ü😀']);
  const BAD_KEYS = ['throw/1', 'throw/2 two', 'num/1', 'undef/1', 'empty/1', 'empty/2', 'long/1', 'multibyte/1'];
  let src;
  beforeAll(async () => {
    src = await createBucket(uniqueBucket('tokey'));
    await putObjects(src, [...GOOD_KEYS, ...BAD_KEYS]);
  });

  const expectedTargets = () => GOOD_KEYS.map((k) => `copied/${k}`).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

  function expectNamed(stderr) {
    const ls = lines(stderr);
    // Exactly one line per failed key, nothing else, no stack.
    expect(ls).toHaveLength(BAD_KEYS.length);
    expect(stderr).not.toMatch(STACK);
    for (const k of BAD_KEYS) {
      const named = ls.filter((l) => l.startsWith(`s3blitz: failed ${JSON.stringify(k)}: `));
      expect({ key: k, named }).toEqual({ key: k, named: [expect.stringMatching(/--to-key (threw|returned an invalid key)/)] });
    }
  }

  test('cp (text report)', async () => {
    const dst = await createBucket(uniqueBucket('tokey-dst'));
    const r = await run(['cp', `s3://${src}`, '--to-bucket', dst, '--to-key', TO_KEY]);
    expect(r.code).toBe(1);
    expectNamed(r.stderr);
    expect(r.stdout).toMatch(new RegExp(`^copied\\s+${GOOD_KEYS.length} objects`, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^failed\\s+${BAD_KEYS.length} objects`, 'm'));
    expect((await sequentialList(dst)).map((o) => o.Key)).toEqual(expectedTargets());
  });

  test('cp --json: the report counts and lists every failure', async () => {
    const dst = await createBucket(uniqueBucket('tokey-json'));
    const r = await run(['cp', `s3://${src}`, '--to-bucket', dst, '--to-key', TO_KEY, '--json']);
    expect(r.code).toBe(1);
    expectNamed(r.stderr);
    const rep = JSON.parse(r.stdout);
    expect(rep.copied.objects).toBe(GOOD_KEYS.length);
    expect(rep.failed.objects).toBe(BAD_KEYS.length);
    expect(rep.ok).toBe(false);
    expect(rep.failures.map((f) => f.key).sort()).toEqual([...BAD_KEYS].sort());
    for (const f of rep.failures) expect(f).toMatchObject({ status: 'failed', reason: expect.stringMatching(/--to-key/) });
    expect((await sequentialList(dst)).map((o) => o.Key)).toEqual(expectedTargets());
  });

  test('sync with the same --to-key', async () => {
    const dst = await createBucket(uniqueBucket('tokey-sync'));
    const r = await run(['sync', `s3://${src}`, '--to-bucket', dst, '--to-key', TO_KEY]);
    expect(r.code).toBe(1);
    expectNamed(r.stderr);
    expect((await sequentialList(dst)).map((o) => o.Key)).toEqual(expectedTargets());
  });
});
