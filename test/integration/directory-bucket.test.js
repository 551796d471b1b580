'use strict';
// Directory buckets (S3 Express One Zone) through the CLI and the real SDK, against an HTTP
// fake that models them (test/helpers/fake-directory-s3.js: sessions from CreateSession,
// pages in no key order, StartAfter refused, random ETags, phantom directories of open
// uploads) and MinIO as the general-purpose side. No installable server has directory
// buckets. Trees and differences are drawn from a fresh seed each run (replay with
// S3BLITZ_TEST_SEED); every expectation is computed here from the drawn trees, and every
// outcome read back from the stores themselves (the SDK's listing of MinIO, the fake's own
// objects), never from s3blitz.
const { GetObjectCommand } = require('@aws-sdk/client-s3');
const { startFakeDirectoryS3 } = require('../helpers/fake-directory-s3');
const { drawTree } = require('../helpers/directory-trees');
const { prng } = require('../helpers/keysets');
const { createBucket, putObjects, sequentialList, runCli, s3client, connection } = require('../helpers/s3env');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
// eslint-disable-next-line no-console
console.log(`directory-bucket seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const utf8Sort = (keys) => [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
const DAY = 86400e3;
let fake;
let nextBucket = 1;
const dirBucket = () => `t${nextBucket++}-${SEED % 100000}--use1-az4--x-s3`;

beforeAll(async () => {
  // Small pages, so that continuation tokens carry every listing of more than a few keys.
  fake = await startFakeDirectoryS3({ seed: SEED, maxKeys: 7 });
});
afterAll(() => fake && fake.close());

// A drawn tree small enough for MinIO to take in a moment, with a body per key. MinIO keeps
// files on a file system: no "." or ".." segments (spaces around them too), and no key that is also a directory ("s"
// beside "s/x": MinIO then lists "s" alone), so those are left out.
function storable(tree) {
  const keys = tree.filter((k) => !k.split('/').some((s) => /^\s*\.\.?\s*$/.test(s)));
  const dirs = new Set(keys.flatMap((k) => k.split('/').slice(0, -1).map((_, i, a) => a.slice(0, i + 1).join('/'))));
  return keys.filter((k) => !dirs.has(k));
}

function drawObjects(r) {
  let keys = [];
  while (keys.length < 40) keys = storable(drawTree(r));
  for (let i = keys.length - 1; i > 0; i--) { const j = r.int(i + 1); [keys[i], keys[j]] = [keys[j], keys[i]]; }
  keys = keys.slice(0, 120 + r.int(120));
  return new Map(keys.map((k) => [k, `${k}:${r.int(1e6)}`.repeat(1 + r.int(3))]));
}

// What a directory bucket holds, as the fake itself has it.
const fakeContents = (bucket) => new Map(fake.keys(bucket).map((k) => [k, fake.object(bucket, k).body.toString()]));

async function minioContents(bucket) {
  const out = new Map();
  const client = s3client();
  for (const o of await sequentialList(bucket)) {
    const body = await client.send(new GetObjectCommand({ Bucket: bucket, Key: o.Key }));
    out.set(o.Key, await body.Body.transformToString());
  }
  return out;
}

const sides = {
  general: {
    async make(objects) {
      const b = await createBucket();
      // Some in another storage class, which a directory bucket would refuse to be given.
      await putObjects(b, [...objects].map(([key, body]) => ({ key, body: Buffer.from(body), params: body.length % 3 ? {} : { StorageClass: 'REDUCED_REDUNDANCY' } })));
      return b;
    },
    contents: minioContents,
    endpoint: () => connection().endpoint,
  },
  directory: {
    // mtime: when each key was last written, as the pair's drawn age asks (time decides
    // pairs of equal size there: ETags are no MD5s).
    async make(objects, mtime = () => Date.now() - DAY) {
      const b = dirBucket();
      fake.bucket(b);
      for (const [key, body] of objects) fake.put(b, key, body, { mtime: mtime(key) });
      return b;
    },
    contents: async (b) => fakeContents(b),
    endpoint: () => fake.endpoint,
  },
};

// A source and a target drawn with known differences: keys only in the source (copied), only
// in the target (deleted), of another size (copied), of the same size but older in the target
// (copied where the target's time can be set: a directory bucket), of the same size and newer
// in the target (kept: size and time cannot see that difference, and that is said).
// Other bytes of the same size: a body ends in a digit.
const flip = (body) => body.slice(0, -1) + String((Number(body.slice(-1)) + 1) % 10);

function drawPair(r, targetKind) {
  const source = drawObjects(r);
  const target = new Map();
  const expect = { copies: new Set(), deletes: new Set(), kept: new Set(), targetOlder: new Set() };
  for (const [k, body] of source) {
    const roll = r.next();
    if (roll < 0.3) expect.copies.add(k);
    else if (roll < 0.45) { target.set(k, `${body}+`); expect.copies.add(k); } else if (roll < 0.55 && targetKind === 'directory') {
      target.set(k, flip(body)); expect.targetOlder.add(k); expect.copies.add(k);
    } else if (roll < 0.65) { target.set(k, flip(body)); expect.kept.add(k); } else target.set(k, body);
  }
  for (let i = 0, n = 5 + r.int(20); i < n; i++) {
    const k = `${r.pick([...source.keys()]).replace(/[^/]*$/, '')}extra-${i}-${r.int(1e6)}`;
    if (!source.has(k)) { target.set(k, `extra ${i}`); expect.deletes.add(k); }
  }
  return { source, target, expect };
}

// stderr without the notices these runs are expected to give: that a bucket is a directory
// bucket, and (deleting in MinIO) that MinIO does not honour conditional deletes.
const quiet = (stderr) => stderr.replace(/^s3blitz: (\S+ is a directory bucket|the server does not honour conditional deletes).*\n/gm, '');

// The sync's plan, from --dryrun's lines ("copy    <size>  key -> key", "delete  <size>  key",
// the size in 10 columns; the drawn keys hold no control characters, so they are printed as
// they are), before its summary.
async function plan(args) {
  const dry = await runCli([...args, '--dryrun']);
  expect({ code: dry.code, stderr: quiet(dry.stderr) }).toEqual({ code: 0, stderr: '' });
  const copies = new Set();
  const deletes = new Set();
  for (const line of dry.stdout.split('\n').filter(Boolean)) {
    if (line.startsWith('delete  ')) deletes.add(line.slice(20));
    else if (line.startsWith('copy    ')) {
      const both = line.slice(20); // "key -> key": source and target keys are the same here
      copies.add(both.slice(0, (both.length - 4) / 2));
    }
  }
  return { copies, deletes };
}

// A real run, --json: its summary.
async function sync(args) {
  const run = await runCli([...args, '--json']);
  expect({ code: run.code, stderr: quiet(run.stderr) }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(run.stdout);
}

describe('directory bucket: sync --delete with MinIO and between directory buckets', () => {
  // The last cell names one endpoint only: copies are server-side (CopyObject), the others
  // stream through this machine.
  const cells = [['general', 'directory', 'two endpoints'], ['directory', 'general', 'two endpoints'], ['directory', 'directory', 'two endpoints'], ['directory', 'directory', 'one endpoint']];
  test.each(cells)('directory bucket sync %s -> %s (%s): exactly the expected copies and deletes, then nothing', async (from, to, endpoints) => {
    const r = prng(SEED + cells.findIndex((c) => c[0] === from && c[1] === to && c[2] === endpoints));
    const { source, target, expect: want } = drawPair(r, to);
    const src = await sides[from].make(source);
    // A target older than its source where drawn; every other target key newer than its
    // source (the source's directory-bucket keys are a day old).
    const dst = await sides[to].make(target, (k) => (want.targetOlder.has(k) ? Date.now() - 2 * DAY : Date.now() + DAY));
    const args = ['sync', `s3://${src}`, `s3://${dst}`, '--delete', '--endpoint-url', sides[from].endpoint()];
    if (endpoints === 'two endpoints') args.push('--to-endpoint-url', sides[to].endpoint());
    // CopyObject: a PUT naming a copy source, not a part.
    const copyRequests = () => fake.requests.filter((q) => q.copy && q.query.uploadId === undefined);
    const copiesBefore = copyRequests().length;

    const p = await plan(args);
    expect(utf8Sort(p.copies)).toEqual(utf8Sort(want.copies));
    expect(utf8Sort(p.deletes)).toEqual(utf8Sort(want.deletes));

    const writes = () => fake.requests.filter((q) => q.method !== 'GET' && q.method !== 'HEAD').length;
    const first = await sync(args);
    // The target now holds the source's keys, each with the source's bytes but where the
    // pair was kept (same size, target newer).
    const got = await sides[to].contents(dst);
    const wanted = new Map([...source].map(([k, body]) => [k, want.kept.has(k) ? target.get(k) : body]));
    expect(utf8Sort(got.keys())).toEqual(utf8Sort(wanted.keys()));
    for (const [k, body] of wanted) if (got.get(k) !== body) throw new Error(`${JSON.stringify(k)}: ${JSON.stringify(got.get(k))}, expected ${JSON.stringify(body)}`);
    // Server-side copies where one endpoint serves both buckets, and only there.
    const copies = copyRequests().slice(copiesBefore);
    expect(copies.length).toBe(endpoints === 'one endpoint' ? want.copies.size : 0);
    // By the lean path, signed as the SDK signs them there (the fake checks: the caller's
    // keys, service s3express, no session).
    expect(copies.filter((q) => q.sdk)).toEqual([]);
    // Pairs of equal size were judged by size and time (a directory bucket's ETags are no MD5s).
    expect(first.judgedBy['size+time']).toBeGreaterThan(0);
    expect(first.judgedBy.etag).toBeUndefined();

    const again = await plan(args);
    expect({ copies: [...again.copies], deletes: [...again.deletes] }).toEqual({ copies: [], deletes: [] });
    const before = writes();
    await sync(args);
    expect(writes()).toBe(before);
  });
});

describe('directory bucket listing through the CLI, with sessions that expire mid-listing', () => {
  test('directory bucket ls, ls --delimiter, ls --unordered and summarize: every key once, ls in UTF-8 order, no folder of an open upload, expired sessions renewed', async () => {
    const r = prng(SEED + 100);
    let keys = [];
    while (keys.length < 300) keys = drawTree(r).slice(0, 4000);
    // Every 50th request with a session finds it expired: more than the requests in flight
    // (--list-concurrency 8), so each request is refused at most once in a row.
    const expiring = await startFakeDirectoryS3({ seed: SEED, maxKeys: 5, expireEvery: 50 });
    try {
      const b = 'listed--use1-az4--x-s3';
      let bytes = 0;
      for (const k of keys) { expiring.put(b, k, k); bytes += Buffer.byteLength(k); }
      expiring.openUpload(b, 'phantom/open/upload.bin');
      const args = (...more) => [...more, `s3://${b}`, '--endpoint-url', expiring.endpoint, '--list-concurrency', '8'];

      const ls = await runCli(args('ls'));
      expect({ code: ls.code, stderr: quiet(ls.stderr) }).toEqual({ code: 0, stderr: '' });
      const lines = ls.stdout.split('\n').slice(0, -1);
      expect(lines.length).toBe(keys.length);
      expect(lines).toEqual(utf8Sort(keys));

      // One level: S3 names phantom/ (an upload in progress) beside the folders of keys; it
      // holds nothing and is not shown.
      const level = await runCli(args('ls', '--delimiter', '/'));
      expect(level.code).toBe(0);
      const top = new Set(keys.map((k) => (k.includes('/') ? k.slice(0, k.indexOf('/') + 1) : k)));
      // Lines as aws-cli's: "PRE folder/", or "date time size key"; in each 1,000 entries of
      // the level's order, the folders first.
      const names = level.stdout.split('\n').slice(0, -1).map((l) => l.replace(/^\s*PRE /, '').replace(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\d+ /, ''));
      const sorted = utf8Sort(top);
      const printed = [];
      for (let i = 0; i < sorted.length; i += 1000) {
        const group = sorted.slice(i, i + 1000);
        printed.push(...group.filter((n) => n.endsWith('/')), ...group.filter((n) => !n.endsWith('/')));
      }
      expect(names).toEqual(printed);

      const unordered = await runCli(args('ls', '--unordered'));
      expect(unordered.code).toBe(0);
      expect(utf8Sort(unordered.stdout.split('\n').slice(0, -1))).toEqual(utf8Sort(keys));

      const sum = await runCli(args('summarize', '--json', '--verbose'));
      expect(sum.code).toBe(0);
      const j = JSON.parse(sum.stdout);
      // Sessions did expire under the listings, and the requests refused went again with new
      // ones (without that, the first refusal fails the run: exit 3).
      expect(j.stats.expiredSessions).toBeGreaterThan(0);
      expect(sum.stderr).toMatch(/requests sent again after their session expired \d+/);
      expect(expiring.requests.filter((q) => q.query.session !== undefined).length).toBeGreaterThan(1);
      // Pages came by the lean path, signed with the sessions (the fake checks the keys and
      // the service); the SDK only where a session had expired under a lean request.
      const lists = expiring.requests.filter((q) => q.query['list-type'] === '2');
      expect(lists.filter((q) => !q.sdk).length).toBeGreaterThan(lists.filter((q) => q.sdk).length * 5);

      // --max-list-requests holds here too: it stops early, says so, exits 0, marked incomplete;
      // ls gives what it listed, each key once, in order.
      const cut = await runCli(args('summarize', '--max-list-requests', '3', '--json'));
      const c = JSON.parse(cut.stdout);
      expect([cut.code, c.complete, c.stats.listRequests, c.objects < keys.length, /--max-list-requests/.test(cut.stderr)]).toEqual([0, false, 3, true, true]);
      const part = await runCli(args('ls', '--max-list-requests', '3'));
      const got = part.stdout.split('\n').slice(0, -1);
      expect([part.code, /--max-list-requests/.test(part.stderr), got.length < keys.length, new Set(got).size === got.length]).toEqual([0, true, true, true]);
      expect(got).toEqual(utf8Sort(got).filter((k) => keys.includes(k)));
    } finally {
      await expiring.close();
    }
  });
});

describe('directory bucket mv', () => {
  // A drawn tree under src/ of a fresh directory bucket, and what the fake holds of each key.
  function seedTree(r, b) {
    let keys = [];
    while (keys.length < 20) keys = storable(drawTree(r).slice(0, 300));
    for (const k of keys) fake.put(b, `src/${k}`, `body of ${k}`);
    return new Map(keys.map((k) => [k, fake.object(b, `src/${k}`)]));
  }

  test('directory bucket mv within the bucket renames (RenameObject): same objects, nothing copied or deleted; --no-overwrite keeps what is there', async () => {
    const r = prng(SEED + 200);
    const b = dirBucket();
    fake.bucket(b);
    const before = seedTree(r, b);
    const keys = [...before.keys()];
    // One target key taken already: with --no-overwrite, its source stays.
    const taken = r.pick(keys);
    fake.put(b, `dst/${taken}`, 'already here');
    const from = fake.requests.length;
    const run = await runCli(['mv', `s3://${b}/src/`, `s3://${b}/dst/`, '--no-overwrite', '--endpoint-url', fake.endpoint]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/moved within it by RenameObject/);
    expect(run.stdout).toMatch(new RegExp(`${keys.length - 1} renamed in place \\(RenameObject\\)`));
    const sent = fake.requests.slice(from).filter((q) => q.bucket === b && q.method !== 'GET' && q.method !== 'HEAD');
    // Only renames wrote (no PutObject, CopyObject, multipart or DeleteObjects).
    expect(sent.filter((q) => q.query.renameObject === undefined)).toEqual([]);
    expect(sent.length).toBe(keys.length);
    for (const [k, o] of before) {
      if (k === taken) {
        expect(fake.object(b, `src/${k}`)).toBe(o);
        expect(fake.object(b, `dst/${k}`).body.toString()).toBe('already here');
      } else {
        expect(fake.object(b, `src/${k}`)).toBeUndefined();
        expect(fake.object(b, `dst/${k}`)).toBe(o); // the very object: ETag, dates and bytes kept
      }
    }
  });

  test('directory bucket mv to a general-purpose bucket copies, proves and deletes', async () => {
    const r = prng(SEED + 300);
    const b = dirBucket();
    fake.bucket(b);
    const before = seedTree(r, b);
    const target = await createBucket();
    const run = await runCli(['mv', `s3://${b}/src/`, `s3://${target}/moved/`, '--endpoint-url', fake.endpoint, '--to-endpoint-url', connection().endpoint]);
    expect({ code: run.code, stderr: quiet(run.stderr) }).toEqual({ code: 0, stderr: '' });
    expect(fake.keys(b).filter((k) => k.startsWith('src/'))).toEqual([]);
    const got = await minioContents(target);
    expect(utf8Sort(got.keys())).toEqual(utf8Sort([...before.keys()].map((k) => `moved/${k}`)));
    for (const [k, o] of before) expect(got.get(`moved/${k}`)).toBe(o.body.toString());
  });
});

describe('directory bucket shards through the CLI', () => {
  test('directory bucket --shards N: every key once across the shards, and the merged summary counts them all', async () => {
    const os = require('os');
    const fs = require('fs');
    const path = require('path');
    const r = prng(SEED + 400);
    const b = dirBucket();
    fake.bucket(b);
    let keys = [];
    while (keys.length < 100) keys = drawTree(r).slice(0, 1500);
    for (const k of keys) fake.put(b, k, 'v');
    const n = 2 + r.int(5);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dir-shards-'));
    try {
      const each = (args) => Promise.all(Array.from({ length: n }, (_, i) => runCli([...args(i), '--endpoint-url', fake.endpoint, '--shards', String(n), '--shard', `${i}/${n}`], { env: { XDG_STATE_HOME: dir } })));
      const listed = [];
      for (const one of await each(() => ['ls', `s3://${b}`, '-q'])) {
        expect({ code: one.code, stderr: one.stderr }).toEqual({ code: 0, stderr: '' });
        listed.push(...one.stdout.split('\n').slice(0, -1));
      }
      expect(utf8Sort(listed)).toEqual(utf8Sort(keys)); // every key once, in one shard
      const sums = await each((i) => ['summarize', `s3://${b}`, '--result', path.join(dir, `sum-${i}.json`), '--json', '-q']);
      for (const one of sums) expect(one.code).toBe(0);
      const merged = await runCli(['merge', ...Array.from({ length: n }, (_, i) => path.join(dir, `sum-${i}.json`)), '--json', '-q']);
      expect(merged.code).toBe(0);
      expect(JSON.parse(merged.stdout).objects).toBe(keys.length);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('directory bucket with local folders, streams and checksums', () => {
  const fs = require('fs');
  const os = require('os');
  const path = require('path');
  const crypto = require('crypto');
  const { folderContents, writeFolder } = require('../helpers/local-tree');
  const MiB = 1024 * 1024;
  const big = ['--large-copy-threshold', '5MiB', '--part-size', '5MiB'];

  test('directory bucket sync --delete from and to a local folder, a multipart upload, cat, cp from stdin, compare --checksum: the drawn bytes everywhere', async () => {
    const r = prng(SEED + 500);
    const b = dirBucket();
    fake.bucket(b);
    const at = ['--endpoint-url', fake.endpoint];
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dir-local-'));
    try {
      // Up: a drawn folder with one file large enough for a multipart upload, into a bucket
      // that holds keys the folder does not (deleted) and older bytes of some it does.
      const up = path.join(root, 'up');
      const files = new Map([...drawObjects(r)].map(([k, body]) => [k, Buffer.from(body)]));
      const largeKey = `${r.pick([...files.keys()]).replace(/[^/]*$/, '')}large-${r.int(1e6)}.bin`;
      files.set(largeKey, crypto.randomBytes(11 * MiB + r.int(MiB)));
      writeFolder(up, files);
      for (const k of [...files.keys()].filter(() => r.next() < 0.2)) fake.put(b, k, 'older', { mtime: Date.now() - 2 * DAY });
      const extras = [...files.keys()].slice(0, 5).map((k, i) => `${k.replace(/[^/]*$/, '')}gone-${i}`).filter((k) => !files.has(k));
      for (const k of extras) fake.put(b, k, 'not in the folder');
      const upRun = await runCli(['sync', up, `s3://${b}`, '--delete', ...big, ...at, '--json']);
      expect({ code: upRun.code, stderr: quiet(upRun.stderr) }).toEqual({ code: 0, stderr: '' });
      const held = fakeContents(b);
      expect(utf8Sort(held.keys())).toEqual(utf8Sort(files.keys()));
      for (const [k, body] of files) expect(fake.object(b, k).body.equals(body)).toBe(true);
      // The large file went in parts, its full-object checksum sent with the completion.
      const completions = fake.requests.filter((q) => q.bucket === b && q.method === 'POST' && q.query.uploadId !== undefined);
      expect(completions.length).toBe(1);
      expect(Object.keys(fake.object(b, largeKey).checksums).length).toBe(1);

      // compare --checksum: the folder and the bucket agree; then a file of the same size but
      // other bytes is found different (sizes and times cannot see it; stored checksums can).
      const same = await runCli(['compare', up, `s3://${b}`, '--checksum', ...at, '--json']);
      expect({ code: same.code, stderr: quiet(same.stderr) }).toEqual({ code: 0, stderr: '' });
      const agreed = JSON.parse(same.stdout);
      expect(agreed.classes.same.objects).toBe(files.size);
      // Every pair judged by its stored checksum (a directory bucket's ETags prove nothing).
      expect(Object.keys(agreed.judgedBy).every((j) => j.startsWith('checksum '))).toBe(true);
      expect(Object.values(agreed.judgedBy).reduce((a, n) => a + n, 0)).toBe(files.size);
      const changed = r.pick([...files.keys()].filter((k) => k !== largeKey));
      const flipped = Buffer.from(flip(files.get(changed).toString()));
      fs.writeFileSync(path.join(up, ...changed.split('/')), flipped);
      fs.utimesSync(path.join(up, ...changed.split('/')), new Date(Date.now() - 3 * DAY), new Date(Date.now() - 3 * DAY));
      const differs = await runCli(['compare', up, `s3://${b}`, '--checksum', ...at, '--json']);
      expect(differs.code).toBe(1);
      const report = JSON.parse(differs.stdout);
      expect([report.classes['content-differs'].objects, report.classes.same.objects]).toEqual([1, files.size - 1]);

      // Down: into a folder holding a file the bucket does not (deleted) and stale bytes of one
      // it does; every byte checked against the folder drawn above.
      const down = path.join(root, 'down');
      const stale = r.pick([...files.keys()]);
      writeFolder(down, [['stray/file.txt', 'not in the bucket'], [stale, 'stale']]);
      // Older than the bucket's copy, so replaced whatever its size (pairs of equal size are
      // judged by time here).
      fs.utimesSync(path.join(down, ...stale.split('/')), new Date(Date.now() - 10 * DAY), new Date(Date.now() - 10 * DAY));
      const downRun = await runCli(['sync', `s3://${b}`, down, '--delete', ...big, ...at, '--json']);
      expect({ code: downRun.code, stderr: quiet(downRun.stderr) }).toEqual({ code: 0, stderr: '' });
      const got = folderContents(down);
      const want = new Map(files);
      want.set(changed, files.get(changed)); // the bucket still has the bytes uploaded
      expect(utf8Sort(got.keys())).toEqual(utf8Sort(want.keys()));
      for (const [k, body] of want) if (!got.get(k).equals(body)) throw new Error(`${JSON.stringify(k)}: other bytes`);

      // Streams: cat of the large object, and an upload from stdin.
      const cat = await runCli(['cat', `s3://${b}/${largeKey}`, ...at]);
      expect(cat.code).toBe(0);
      expect(cat.stdoutBytes.equals(files.get(largeKey))).toBe(true);
      const piped = crypto.randomBytes(1000 + r.int(100000));
      const fromStdin = await runCli(['cp', '-', `s3://${b}/piped/in.bin`, ...at], { input: piped });
      expect({ code: fromStdin.code, stderr: quiet(fromStdin.stderr) }).toEqual({ code: 0, stderr: '' });
      expect(fake.object(b, 'piped/in.bin').body.equals(piped)).toBe(true);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('directory bucket to directory bucket, one endpoint: a multipart object is copied part by part on the server (UploadPartCopy), in its own layout', async () => {
    const r = prng(SEED + 700);
    const from = dirBucket(), to = dirBucket();
    fake.bucket(from);
    fake.bucket(to);
    const at = ['--endpoint-url', fake.endpoint];
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dir-parts-'));
    try {
      // A drawn size over two parts of 5 MiB, uploaded in parts; and a small file beside it.
      const body = crypto.randomBytes(10 * MiB + 1 + r.int(5 * MiB));
      writeFolder(root, [['big.bin', body], ['small.txt', 'small']]);
      const upload = await runCli(['cp', `${root}/`, `s3://${from}/in/`, ...big, ...at]);
      expect({ code: upload.code, stderr: quiet(upload.stderr) }).toEqual({ code: 0, stderr: '' });
      const parts = Math.ceil(body.length / (5 * MiB));
      expect(fake.object(from, 'in/big.bin').etag).toMatch(new RegExp(`-${parts}$`));
      const before = fake.requests.length;
      const copy = await runCli(['cp', `s3://${from}/in/`, `s3://${to}/out/`, ...big, ...at]);
      expect({ code: copy.code, stderr: quiet(copy.stderr) }).toEqual({ code: 0, stderr: '' });
      expect(fake.object(to, 'out/big.bin').body.equals(body)).toBe(true);
      expect(fake.object(to, 'out/small.txt').body.toString()).toBe('small');
      const during = fake.requests.slice(before);
      // Parts copied on the server in the source's layout, the small file in one CopyObject,
      // and no object's bytes read through this machine.
      expect(during.filter((q) => q.copy && q.query.uploadId !== undefined).length).toBe(parts);
      expect(during.filter((q) => q.copy && q.query.uploadId === undefined).length).toBe(1);
      expect(during.filter((q) => q.method === 'GET' && q.key).length).toBe(0);
      expect(fake.object(to, 'out/big.bin').etag).toMatch(new RegExp(`-${parts}$`));
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('directory bucket copies interrupted and resumed', () => {
  const os = require('os');
  const fs = require('fs');
  const path = require('path');
  const { spawn } = require('child_process');
  const { BATCH } = require('../../src/journal/run-journal');
  const { testEnv, REPO_ROOT } = require('../helpers/s3env');
  const CONCURRENCY = 8;

  // The CLI, killed with SIGKILL once `when(request, copiesSoFar)` says so.
  function runUntil(args, env, when) {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/s3blitz.js'), ...args], { env: { ...testEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let copies = 0;
      const off = fake.onRequest((q) => {
        if (q.copy) copies++;
        if (!child.killed && when(q, copies)) child.kill('SIGKILL');
      });
      child.on('close', (code, sig) => { off(); resolve({ code, sig }); });
    });
  }

  test('directory bucket cp to a directory bucket, killed at a drawn copy, resumes: every key once, little copied twice', async () => {
    const r = prng(SEED + 800);
    const from = dirBucket(), to = dirBucket();
    fake.bucket(from);
    fake.bucket(to);
    let keys = [];
    while (keys.length < 400) keys = drawTree(r).slice(0, 1500);
    for (const k of keys) fake.put(from, k, `${k}:${r.int(1e6)}`);
    const state = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dir-resume-'));
    try {
      const journal = path.join(state, 'run.jsonl');
      const args = ['cp', `s3://${from}`, `s3://${to}`, '--endpoint-url', fake.endpoint, '--copy-concurrency', String(CONCURRENCY), '--journal', journal, '--json'];
      const at = Math.floor(keys.length * (0.2 + 0.6 * r.next()));
      const killed = await runUntil(args, { XDG_STATE_HOME: state }, (q, copies) => q.copy && copies >= at);
      expect(killed.sig).toBe('SIGKILL');
      expect(fs.existsSync(journal)).toBe(true);
      const before = new Set(fake.keys(to));
      const copied = [];
      const off = fake.onRequest((q) => { if (q.copy && q.bucket === to) copied.push(q.key); });
      const again = await runCli(args, { env: { XDG_STATE_HOME: state } });
      off();
      expect({ code: again.code, stderr: quiet(again.stderr) }).toEqual({ code: 0, stderr: expect.stringMatching(/resuming from/) });
      // Every key there with its bytes; each one missing at the kill copied on the resume;
      // of those present, at most the copies in flight and one journal batch copied again.
      expect(fakeContents(to)).toEqual(fakeContents(from));
      for (const k of keys) if (!before.has(k)) expect(copied).toContain(k);
      expect(copied.filter((k) => before.has(k)).length).toBeLessThanOrEqual(CONCURRENCY + 1 + BATCH);
      expect(new Set(copied).size).toBe(copied.length);
      expect(fs.existsSync(journal)).toBe(false);
    } finally {
      fs.rmSync(state, { recursive: true, force: true });
    }
  });
});

describe('directory bucket and versions', () => {
  const os = require('os');
  const fs = require('fs');
  const path = require('path');
  // Every command that reads a source, with each way of choosing a version. A directory
  // bucket keeps none, so each cell must be refused before any request (exit 2, one line),
  // nothing changed. Where the same command line is a usage error on any bucket (checked here
  // on a general-purpose name at an endpoint that answers nothing), its own message may come
  // first; else the line must say that the bucket is a directory bucket.
  const commands = {
    ls: (b) => ['ls', `s3://${b}`],
    summarize: (b) => ['summarize', `s3://${b}`],
    'cp to a folder': (b, dir) => ['cp', `s3://${b}/a/`, dir],
    'cp one object': (b, dir) => ['cp', `s3://${b}/a/1`, path.join(dir, 'one')],
    cat: (b) => ['cat', `s3://${b}/a/1`],
    sync: (b, dir) => ['sync', `s3://${b}`, dir],
    compare: (b, dir) => ['compare', `s3://${b}`, dir],
    rm: (b) => ['rm', `s3://${b}/a/`],
    mv: (b) => ['mv', `s3://${b}/a/1`, `s3://${b}/moved/1`],
    head: (b) => ['head', `s3://${b}/a/1`],
    each: (b) => ['each', `s3://${b}`, '--map', 'js:(item) => {}'],
  };
  const selectors = { '--all-versions': ['--all-versions'], '--as-of': ['--as-of', '2025-01-01T00:00:00Z'], '--version-id': ['--version-id', 'v123'] };
  const cells = Object.keys(commands).flatMap((c) => Object.keys(selectors).map((s) => [c, s]));
  // A sample of the cells each run, drawn by the seed.
  const r = prng(SEED + 600);
  const sample = cells.filter(() => r.next() < 0.4);

  // Runs args(bucket, dir) against a fresh directory bucket of three keys and an empty
  // folder; checks it was refused before any request (exit 2, one line), nothing changed;
  // then check(run, dir), while the folder is still there.
  async function refused(args, check = async () => {}) {
    const b = dirBucket();
    fake.bucket(b);
    for (const k of ['a/1', 'a/2', 'b/3']) fake.put(b, k, `body of ${k}`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-dir-refused-'));
    try {
      const before = fake.requests.length;
      const run = await runCli([...args(b, dir), '--endpoint-url', fake.endpoint]);
      expect({ code: run.code, lines: run.stderr.split('\n').filter(Boolean).length, requests: fake.requests.length - before }).toEqual({ code: 2, lines: 1, requests: 0 });
      expect(fakeContents(b)).toEqual(new Map(['a/1', 'a/2', 'b/3'].map((k) => [k, `body of ${k}`])));
      expect(fs.readdirSync(dir)).toEqual([]);
      await check(run, dir, b);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test.each(sample)('directory bucket %s %s: refused before any request, nothing changed', async (command, selector) => {
    await refused((b, dir) => [...commands[command](b, dir), ...selectors[selector]], async (run, dir) => {
      if (!/is a directory bucket, which keeps no versions/.test(run.stderr)) {
        const general = await runCli([...commands[command]('general-bucket', dir), ...selectors[selector], '--endpoint-url', 'http://127.0.0.1:1']);
        expect({ command, selector, general: general.code, stderr: general.stderr.trim() }).toEqual({ command, selector, general: 2, stderr: run.stderr.trim() });
      }
    });
  });

  // The same commands with a key range of the caller's: a directory bucket takes no
  // StartAfter and lists in no key order, so each is refused before any request (exit 2,
  // one line saying why); a shard's range there is the plan's and stays (--shards above).
  const ranges = { '--start-after': ['--start-after', 'a/1'], '--stop-at': ['--stop-at', 'a/2'] };
  const rangeCommands = {
    ...Object.fromEntries(Object.entries(commands).filter(([c]) => !['cat', 'head', 'mv', 'cp one object'].includes(c))),
    // The caller's range is checked before a shard's takes its place.
    'ls, one shard': (b) => ['ls', `s3://${b}`, '--shards', '2', '--shard', '0/2'],
    'summarize, one shard': (b) => ['summarize', `s3://${b}`, '--shards', '2', '--shard', '1/2'],
  };
  const rangeCells = Object.keys(rangeCommands).flatMap((c) => Object.keys(ranges).map((x) => [c, x]));
  const rangeSample = rangeCells.filter(() => r.next() < 0.4);
  test.each(rangeSample)('directory bucket %s %s: refused before any request, nothing changed', async (command, flag) => {
    await refused((b, dir) => [...rangeCommands[command](b, dir), ...ranges[flag]], async (run, dir, b) => {
      expect(run.stderr).toMatch(new RegExp(`${b} is a directory bucket, which lists in no key order and takes no StartAfter: ${flag}`));
    });
  });

  test('directory bucket --version-id null names the one version there is', async () => {
    const b = dirBucket();
    fake.bucket(b);
    fake.put(b, 'a/1', 'the only version');
    const run = await runCli(['cat', `s3://${b}/a/1`, '--version-id', 'null', '--endpoint-url', fake.endpoint]);
    expect({ code: run.code, stdout: run.stdout, stderr: quiet(run.stderr) }).toEqual({ code: 0, stdout: 'the only version', stderr: '' });
    // (the request named it: the fake refuses any other version id, as S3 does there)
    expect(fake.requests.filter((q) => q.bucket === b && q.query.versionId === 'null').length).toBeGreaterThan(0);
  });
});
