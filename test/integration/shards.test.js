'use strict';
// A job split into shards on MinIO, each shard its own CLI process, as an engine would run
// them: for N = 1, 3 and 7 the shards' listings together are the sequential listing, each
// key once; their summaries merged equal one process's; a sharded sync converges and a
// second one copies nothing; a shard killed half way, run again alone, completes the job.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { createBucket, putObjects, sequentialList, runCli, testEnv, REPO_ROOT } = require('../helpers/s3env');
const { adversarialKeys, minioSafe } = require('../helpers/keysets');
const { startFaultProxy } = require('../helpers/fault-proxy');
const { compareKeys } = require('../../src/keys/order');

let src, keys, dir;
beforeAll(async () => {
  src = await createBucket();
  keys = minioSafe(adversarialKeys(1200, 19));
  for (let d = 1; d <= 6; d++) for (let i = 0; i < 250; i++) keys.push(`logs/2024/0${d}/part-${String(i).padStart(4, '0')}.gz`);
  for (let i = 0; i < 1001; i++) keys.push(`p1001/${String(i).padStart(4, '0')}`);
  keys.push('pre', 'pre-x', 'pre/', 'pre/a', 'pre0');
  keys = [...new Set(minioSafe(keys))];
  await putObjects(src, keys, { concurrency: 48 });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-shards-'));
}, 300000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const all = (n, args) => Promise.all(Array.from({ length: n }, (_, i) => runCli([...args(i), '--shards', String(n), '--shard', `${i}/${n}`], { env: { XDG_STATE_HOME: dir } })));

test.each([1, 3, 7])('%i shards: every key exactly once, and the merged summary equals one process\'s', async (n) => {
  const truth = (await sequentialList(src)).map((o) => o.Key);
  expect(truth.length).toBe(keys.length);
  const lists = await all(n, () => ['ls', `s3://${src}`, '--json', '-q']);
  const listed = [];
  for (const r of lists) {
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    listed.push(...r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).Key));
  }
  expect(new Set(listed).size).toBe(listed.length); // no key twice
  expect(listed.sort(compareKeys)).toEqual([...truth].sort(compareKeys));

  const res = path.join(dir, `sum-${n}`);
  const sums = await all(n, () => ['summarize', `s3://${src}`, '--result', `${res}-%i.json`, '--json', '-q']);
  for (const r of sums) expect(r.code).toBe(0);
  const merged = await runCli(['merge', ...Array.from({ length: n }, (_, i) => `${res}-${i}.json`), '--json', '-q']);
  expect(merged.code).toBe(0);
  const one = await runCli(['summarize', `s3://${src}`, '--json', '-q']);
  const a = JSON.parse(merged.stdout), b = JSON.parse(one.stdout);
  // Examples of troublesome keys are the first seen, in the order pages arrive: their counts are compared.
  const counts = (t) => ({ keys: t.keys, kinds: t.kinds.map((x) => [x.kind, x.objects]) });
  for (const k of Object.keys(b)) {
    if (['stats', 'startedAt', 'elapsedMs', 'incompleteUploads'].includes(k)) continue;
    if (k === 'troubleKeys') expect(counts(a[k])).toEqual(counts(b[k]));
    else expect([k, a[k]]).toEqual([k, b[k]]);
  }
}, 300000);

test('a sharded sync converges, a second copies nothing, and merge tells a missing shard', async () => {
  const dst = await createBucket();
  const res = path.join(dir, 'sync');
  const first = await all(3, () => ['sync', `s3://${src}`, `s3://${dst}`, '--result', `${res}-%i.json`, '--json', '-q']);
  for (const r of first) expect(r.code).toBe(0);
  const m = await runCli(['merge', `${res}-0.json`, `${res}-1.json`, `${res}-2.json`, '--json', '-q']);
  expect(m.code).toBe(0);
  expect(JSON.parse(m.stdout)).toMatchObject({ copied: { objects: keys.length }, shards: { of: 3, present: 3 } });
  const missing = await runCli(['merge', `${res}-0.json`, `${res}-2.json`]);
  expect({ code: missing.code, stderr: missing.stderr.trim() }).toEqual({ code: 3, stderr: expect.stringMatching(/shard 1 of 3 missing/) });
  const second = await all(3, () => ['sync', `s3://${src}`, `s3://${dst}`, '--json', '-q']);
  for (const r of second) expect(JSON.parse(r.stdout).copied.objects).toBe(0);
  const cmp = await runCli(['compare', `s3://${src}`, `s3://${dst}`, '--json', '-q']);
  expect(JSON.parse(cmp.stdout).identical).toBe(true);
}, 300000);

test('a shard killed half way, run again alone, completes the job', async () => {
  const dst = await createBucket();
  const proxy = await startFaultProxy({ target: require('../helpers/s3env').connection().endpoint });
  try {
    const res = path.join(dir, 'kill');
    const args = (i) => ['cp', `s3://${src}`, `s3://${dst}`, '--endpoint-url', proxy.endpoint, '--shards', '3', '--shard', `${i}/3`, '--result', `${res}-%i.json`, '--json', '-q', '--copy-concurrency', '8'];
    const others = await Promise.all([0, 2].map((i) => runCli(args(i), { env: { XDG_STATE_HOME: dir } })));
    for (const r of others) expect(r.code).toBe(0);
    // Shard 1 is killed after some of its copies, as a node lost mid-task.
    const killed = await new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/s3blitz.js'), ...args(1)], { env: { ...testEnv(), XDG_STATE_HOME: dir }, stdio: 'ignore' });
      let copies = 0;
      const off = proxy.onRequest((info) => { if (info.type === 'COPY' && ++copies === 100) child.kill('SIGKILL'); });
      child.on('close', (code, sig) => { off(); resolve(sig); });
    });
    expect(killed).toBe('SIGKILL');
    const incomplete = await runCli(['merge', `${res}-0.json`, `${res}-1.json`, `${res}-2.json`]);
    expect(incomplete.code).not.toBe(0); // its result was never written
    const rerun = await runCli(args(1), { env: { XDG_STATE_HOME: dir } });
    expect({ code: rerun.code, stderr: rerun.stderr }).toEqual({ code: 0, stderr: '' });
    const m = await runCli(['merge', `${res}-0.json`, `${res}-1.json`, `${res}-2.json`, '--json', '-q']);
    expect(m.code).toBe(0);
    const got = (await sequentialList(dst)).map((o) => o.Key).sort(compareKeys);
    expect(got).toEqual([...keys].sort(compareKeys));
  } finally {
    await proxy.close();
  }
}, 300000);
