'use strict';
// Resumable runs: kill cp with SIGKILL at points chosen by counting requests at a proxy,
// rerun the same command, and check that it resumes, re-copies little, leaves no
// multipart upload behind, and ends identical. SIGINT stops cleanly with exit 130.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawn } = require('child_process');
const { ListMultipartUploadsCommand } = require('@aws-sdk/client-s3');
const s3blitz = require('../../src');
const { BATCH } = require('../../src/journal/run-journal');
const { createBucket, putObjects, putMultipart, sequentialList, runCli, connection, testEnv, s3client, REPO_ROOT, libOptions } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');

const MiB = 1024 * 1024;
const CONCURRENCY = 16;
const conn = libOptions;

let src, keys, proxy, stateDir;
beforeAll(async () => {
  src = await createBucket();
  keys = Array.from({ length: 3000 }, (_, i) => `obj/${String(i).padStart(5, '0')}-é`);
  await putObjects(src, keys.map((key) => ({ key, body: Buffer.from(key) })), { concurrency: 48 });
  // Multipart sources above the threshold: copied part by part (killed in the middle below).
  for (const key of ['big/1.bin', 'big/2.bin']) await putMultipart(src, key, [crypto.randomBytes(5 * MiB), crypto.randomBytes(5 * MiB), crypto.randomBytes(2 * MiB)]);
  proxy = await startFaultProxy({ target: connection().endpoint });
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-resume-'));
}, 300000);
afterAll(async () => { if (proxy) await proxy.close(); });

function cpArgs(dst, journal) {
  return ['cp', `s3://${src}`, `s3://${dst}`, '--endpoint-url', proxy.endpoint, '--copy-concurrency', String(CONCURRENCY),
    '--large-copy-threshold', '5MiB', '--part-size', '5MiB', '--part-concurrency', '1', '--journal', journal, '--json'];
}

// Runs the CLI and kills it with `signal` once `when(info, counts)` says so.
function runUntil(args, when, signal = 'SIGKILL') {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/s3blitz.js'), ...args], { env: { ...testEnv(), XDG_STATE_HOME: stateDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    const counts = {};
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const off = proxy.onRequest((info) => {
      counts[info.type] = (counts[info.type] || 0) + 1;
      if (!child.killed && when(info, counts)) child.kill(signal);
    });
    child.on('close', (code, sig) => { off(); resolve({ code, sig, stderr }); });
  });
}

async function openUploads(bucket) {
  return (await s3client().send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads || [];
}

const points = [
  ['during listing', (info, c) => info.type === 'LIST' && c.LIST >= 2],
  ['during small copies', (info, c) => info.type === 'COPY' && c.COPY >= 700],
  ['during a multipart copy', (info) => info.type === 'COPY' && /partNumber=2/.test(info.url)],
];

test.each(points)('SIGKILL %s, then resume', async (name, when) => {
  const dst = await createBucket();
  const journal = path.join(stateDir, `${dst}.jsonl`);
  const killed = await runUntil(cpArgs(dst, journal), when);
  expect(killed.sig).toBe('SIGKILL');
  expect(fs.existsSync(journal)).toBe(true);
  const before = new Set((await sequentialList(dst)).map((o) => o.Key));
  const left = keys.length + 2 - before.size;

  const copiedKeys = new Set();
  const off = proxy.onRequest((info) => { if (info.type === 'COPY' && info.copySource) copiedKeys.add(info.copySource.key); });
  const res = await runCli(cpArgs(dst, journal), { env: { XDG_STATE_HOME: stateDir } });
  off();
  expect({ code: res.code, stderr: res.stderr.slice(0, 500) }).toEqual({ code: 0, stderr: expect.stringMatching(/resuming from/) });
  const again = [...copiedKeys].filter((k) => before.has(k)).length;
  // eslint-disable-next-line no-console
  console.log(`resume after SIGKILL ${name}: ${before.size} objects present at the kill, ${left} left, ${copiedKeys.size} copied on resume, ${again} of them copied again`);
  expect(copiedKeys.size).toBeGreaterThanOrEqual(left);
  expect(again).toBeLessThanOrEqual(CONCURRENCY + 1 + BATCH); // in flight (small + one large) plus one journal batch
  expect(fs.existsSync(journal)).toBe(false); // a completed run deletes its journal
  expect(await openUploads(dst)).toEqual([]);
  const cmp = await s3blitz.compare({ source: `s3://${src}`, target: `s3://${dst}`, ...conn() });
  expect(cmp.identical).toBe(true);
  // The two multipart sources kept their part layout, so their ETags compare too.
  expect([cmp.classes.same.objects, cmp.classes.unknown.objects]).toEqual([keys.length + 2, 0]);
});

test('SIGINT stops cleanly with exit 130, says how to resume, and the rerun finishes', async () => {
  const dst = await createBucket();
  const journal = path.join(stateDir, `${dst}.jsonl`);
  const stopped = await runUntil(cpArgs(dst, journal), (info, c) => info.type === 'COPY' && c.COPY >= 500, 'SIGINT');
  expect(stopped.code).toBe(130);
  expect(stopped.stderr).toMatch(/run the same command again to resume/);
  expect(fs.existsSync(journal)).toBe(true);
  expect(await openUploads(dst)).toEqual([]);
  const res = await runCli(cpArgs(dst, journal), { env: { XDG_STATE_HOME: stateDir } });
  expect(res.code).toBe(0);
  expect(JSON.parse(res.stdout).copied.objects).toBe(keys.length + 2);
  expect((await sequentialList(dst)).length).toBe(keys.length + 2);
});

test('SIGTERM exits 143; --no-resume starts afresh', async () => {
  const dst = await createBucket();
  const journal = path.join(stateDir, `${dst}.jsonl`);
  const stopped = await runUntil(cpArgs(dst, journal), (info, c) => info.type === 'COPY' && c.COPY >= 300, 'SIGTERM');
  expect(stopped.code).toBe(143);
  const res = await runCli([...cpArgs(dst, journal), '--no-resume'], { env: { XDG_STATE_HOME: stateDir } });
  expect(res.code).toBe(0);
  expect(res.stderr).not.toMatch(/resuming/);
  expect(JSON.parse(res.stdout).copied.objects).toBe(keys.length + 2);
});
