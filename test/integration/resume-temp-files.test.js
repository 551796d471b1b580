'use strict';
// Issue 27: kill -9 during a download used to leave .s3blitz-tmp-* files for good (aws s3
// sync uploads them, rclone lists them). A real cp of many small generated objects from MinIO
// into a folder, through the fault proxy, which holds GETs once a part of the run is done, so
// that temp files are certainly open; the run is killed with SIGKILL then, and the same
// command run again must remove every temp file of the killed run, end with every file holding
// its object's bytes (MD5 against the SDK's ETags), and leave alone temp files that are not the
// killed run's (another run's token, a run without a journal).
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawn } = require('child_process');
const { createBucket, putObjects, sequentialList, runCli, connection, testEnv, REPO_ROOT } = require('../helpers/s3env');
const { filesUnder } = require('../helpers/local-tree');
const { startFaultProxy } = require('../helpers/fault-proxy');
const { prng } = require('../helpers/keysets');
const { TEMP_PREFIX } = require('../../src/stores/local-paths');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 1e9);
const OBJECTS = 1200;
const CONCURRENCY = 8;
const HOLD_AFTER = 300; // GETs answered before the proxy starts holding them
const KILL_AT = 6; // GETs held (each with its temp file open) when the run is killed

let src, proxy, work, objects;
beforeAll(async () => {
  // eslint-disable-next-line no-console
  console.log(`resume-temp-files: seed ${SEED} (S3BLITZ_TEST_SEED=${SEED} repeats it)`);
  const r = prng(SEED);
  const folders = ['a', 'a/b', 'a/b/c', 'logs/2024', 'logs/2025', 'with space', 'é/日本', 'z'];
  const seen = new Set();
  objects = [];
  while (objects.length < OBJECTS) {
    const key = `${r.pick(folders)}/f-${r.int(1e6)}${r.pick(['.bin', '.txt', ' copy', '-é'])}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const body = Buffer.alloc(r.int(8192));
    for (let i = 0; i < body.length; i++) body[i] = r.int(256);
    objects.push({ key, body });
  }
  src = await createBucket('tmp-src');
  await putObjects(src, objects, { concurrency: 48 });
  proxy = await startFaultProxy({ target: connection().endpoint });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-resume-tmp-'));
}, 300000);
afterAll(async () => {
  if (proxy) await proxy.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

const walk = filesUnder;
const isTemp = (f) => path.basename(f).startsWith(TEMP_PREFIX);
const md5 = (file) => crypto.createHash('md5').update(fs.readFileSync(file)).digest('hex');

test('SIGKILL with downloads in flight, then the same cp: no temp file of the killed run is left, every file is whole, others\' temp files stay', async () => {
  const target = path.join(work, 'target');
  const state = path.join(work, 'state');
  const env = { ...testEnv(), XDG_STATE_HOME: state };
  const args = ['cp', `s3://${src}`, target, '--endpoint-url', proxy.endpoint, '--copy-concurrency', String(CONCURRENCY), '--json'];

  // Temp files that are not this run's, in folders it writes to: another s3blitz process's
  // (another shard, with its own token) and one of a run without a journal.
  const planted = {
    'a/.s3blitz-tmp-0123456789ab-00112233aabbccdd': 'another run',
    'logs/2024/.s3blitz-tmp-fedcba9876543210': 'a run without a journal',
  };
  for (const [rel, body] of Object.entries(planted)) {
    fs.mkdirSync(path.dirname(path.join(target, rel)), { recursive: true });
    fs.writeFileSync(path.join(target, rel), body);
  }

  // The first run: killed once KILL_AT GETs are held at the proxy, each with its temp file
  // already open (the file is created before its GET is sent).
  let release;
  const gate = new Promise((r) => { release = r; });
  let gets = 0, held = 0, atKill = null;
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 's3blitz.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  child.stdout.resume();
  const off = proxy.onRequest((info) => {
    if (info.type !== 'GET' || info.bucket !== src || !info.key) return undefined;
    if (++gets <= HOLD_AFTER) return undefined;
    if (++held === KILL_AT) {
      atKill = walk(target).filter((f) => isTemp(f) && !planted[f]);
      child.kill('SIGKILL');
    }
    return gate;
  });
  const killed = await new Promise((resolve) => child.on('close', (code, sig) => resolve({ code, sig })));
  off();
  release(); // the held requests go on to a client that is gone
  expect({ ...killed, stderr: killed.sig === 'SIGKILL' ? '' : stderr }).toEqual({ code: null, sig: 'SIGKILL', stderr: '' });

  const left = walk(target).filter((f) => isTemp(f) && !planted[f]);
  const done = walk(target).filter((f) => !isTemp(f));
  // eslint-disable-next-line no-console
  console.log(`resume-temp-files: killed with ${done.length} of ${OBJECTS} files written, ${atKill.length} temp files open at the kill, ${left.length} left`);
  expect(atKill.length).toBeGreaterThanOrEqual(1);
  expect(left.length).toBeGreaterThanOrEqual(atKill.length);
  expect(done.length).toBeLessThan(OBJECTS);
  // All of the killed run's temp files carry one token: its journal's.
  const tokens = new Set(left.map((f) => /^\.s3blitz-tmp-([0-9a-f]+)-[0-9a-f]{16}$/.exec(path.basename(f))?.[1]));
  expect(tokens.size).toBe(1);
  const [token] = tokens;
  expect(token).toMatch(/^[0-9a-f]{12}$/);

  // The same command again: it resumes, says how many temp files it removed, and finishes.
  const res = await runCli(args, { env: { XDG_STATE_HOME: state } });
  const removed = `removed ${left.length} temporary file${left.length === 1 ? '' : 's'} the earlier run left (.s3blitz-tmp-${token}-*)`;
  expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: expect.stringContaining(removed) });
  expect(res.stderr).toMatch(/^s3blitz: resuming from .*: [\d,]+ objects already copied, continuing after .*; removed \d+ temporary files? the earlier run left/m);
  expect(res.stderr.split(removed).length).toBe(2); // said once

  // No temp file anywhere but the two planted ones, which are as they were.
  const files = walk(target);
  expect(files.filter(isTemp).sort()).toEqual(Object.keys(planted).sort());
  for (const [rel, body] of Object.entries(planted)) expect(fs.readFileSync(path.join(target, rel), 'utf8')).toBe(body);
  // Every object a file with its bytes: the MD5 of each file against the ETag the server lists.
  const listed = await sequentialList(src);
  expect(listed).toHaveLength(OBJECTS);
  expect(files.filter((f) => !isTemp(f)).sort()).toEqual(listed.map((o) => o.Key).sort());
  const wrong = listed.filter((o) => md5(path.join(target, o.Key)) !== o.ETag.replace(/"/g, ''));
  expect(wrong.map((o) => o.Key)).toEqual([]);
  // The run completed: its journal is gone.
  expect(walk(state).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
}, 300000);
