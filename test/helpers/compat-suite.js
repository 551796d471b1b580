'use strict';
// The compatibility suite: the same checks, through the CLI as a user runs it, against
// each S3 server people run (test/integration/compat-*.test.js). The truth is always the
// server's own sequential listing: a server that cannot store a key (file-backed servers
// refuse "a" beside "a/b", or a segment over 255 bytes) or lists it under another name is
// not held against s3blitz; those keys are counted, logged and taken out before the checks.
const fs = require('fs');
const os = require('os');
const path = require('path');
const {
  S3Client, CreateBucketCommand, PutObjectCommand, DeleteObjectCommand, ListObjectsV2Command, GetObjectCommand, HeadObjectCommand,
} = require('@aws-sdk/client-s3');
const { streamChecksum } = require('../../src/stores/content-checksum');
const crypto = require('crypto');
const { startFaultProxy } = require('./fault-proxy');
const { startServer } = require('./servers');
const { runCli, putMultipart } = require('./s3env');
const { adversarialKeys, prng } = require('./keysets');

const MiB = 1024 * 1024;
// S3's composite SHA-256 of an upload in parts of partSize: the digest of the parts' digests, "-N".
function compositeSha256(body, partSize) {
  const h = crypto.createHash('sha256');
  let n = 0;
  for (let at = 0; at < body.length; at += partSize, n++) h.update(crypto.createHash('sha256').update(body.subarray(at, at + partSize)).digest());
  return `${h.digest('base64')}-${n}`;
}
const byUtf8 = (a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const log = (server, msg) => console.log(`[s3blitz compat ${server}] ${msg}`);

function clientFor(conn) {
  return new S3Client({
    endpoint: conn.endpoint, region: conn.region, forcePathStyle: true,
    credentials: { accessKeyId: conn.accessKeyId, secretAccessKey: conn.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

// The server's own sequential listing, in its own order: url-decoded only where it says it
// encoded (the SDK has decoded XML already).
async function sequentialList(client, bucket, prefix) {
  const out = [];
  let token;
  do {
    const r = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token, EncodingType: 'url' }));
    const url = String(r.EncodingType || '').toLowerCase() === 'url';
    for (const o of r.Contents || []) out.push({ Key: url ? decodeURIComponent(o.Key.replace(/\+/g, ' ')) : o.Key, Size: o.Size, ETag: o.ETag });
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  return out;
}

async function putAll(client, bucket, items, concurrency = 24) {
  const refused = [];
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const { key, body } = items[next++];
      try {
        await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
      } catch (err) {
        refused.push({ key, reason: `${err.name} ${err.$metadata ? err.$metadata.httpStatusCode : ''}` });
      }
    }
  }));
  return refused;
}

// A tree of day folders (where SeaweedFS skips a folder named by StartAfter) and awkward keys:
// over three pages, split by the parallel lister. (3,000 and 3,000 made moto's suite run past
// six minutes of CI's ninety; these are the first of the same seeded sequences.)
function sourceKeys(seed, keep, awkwardKeys) {
  const r = prng(seed);
  const tree = [];
  for (let i = 0; i < 1500; i++) tree.push(`logs/2024/${String(1 + (i % 6)).padStart(2, '0')}/${String(1 + ((i >> 3) % 25)).padStart(2, '0')}/part-${i}.gz`);
  // Not both "a" and "a/b": file-backed servers refuse the second (versitygw, s3proxy) or,
  // written at once, keep only one of them while answering 200 to both (SeaweedFS).
  const all = adversarialKeys(awkwardKeys, seed).filter((k) => k.isWellFormed() && !k.includes('\0'));
  const names = new Set(all);
  const awkward = all.filter((k) => {
    for (let i = k.indexOf('/'); i > 0; i = k.indexOf('/', i + 1)) if (names.has(k.slice(0, i))) return false;
    return keep(k, names);
  });
  // Folder objects ("dir/") empty, as consoles make them (SeaweedFS keeps no bytes of others).
  return [...tree, ...awkward].map((key) => ({ key, body: Buffer.alloc(key.endsWith('/') ? 0 : r.int(3000), 120) }));
}

// Keys around the places where stores misread a StartAfter: folders beside names that go on
// with characters below "/" ("a/" beside "a-x"), and characters whose place UTF-16 and UTF-8
// disagree on (U+FF21 against U+1F600); a seeded share of generated ones.
const RANGE_FIXED = ['a-x', 'a.y', 'a/', 'a/b', 'ab', 'data/y', 'data/z/w', 'data-2024/x', 'ord/Z-1', 'ord/Z/child', 'ord/Za',
  'ord/\uFF21/child', 'ord/\u{1F600}/child', 'x/e', 'x/\u00e9'];
const RANGE_TAILS = ['', '-2', '.x', ' 1', '!', 'Z', 'a', '\uFF21', '\uE000', '\u{1F600}', '\u{10000}', '\u00e9'];
function rangeKeys(r, n) {
  const keys = new Set(RANGE_FIXED);
  const name = () => ['a', 'd', 'data', 'ord', 'x'][r.int(5)] + RANGE_TAILS[r.int(RANGE_TAILS.length)];
  while (keys.size < n) keys.add(Array.from({ length: 1 + r.int(3) }, name).join('/'));
  return [...keys];
}

// A bound of a range: a key, a folder's name, or a key made up next to one.
function rangeBound(r, keys) {
  const k = keys[r.int(keys.length)];
  const slashes = [...k.matchAll(/\//g)].map((m) => m.index);
  const x = r.next();
  if (x < 0.3) return k;
  if (x < 0.7 && slashes.length) return k.slice(0, slashes[r.int(slashes.length)]);
  const cps = Array.from(k);
  return cps.slice(0, 1 + r.int(cps.length)).join('') + RANGE_TAILS[r.int(RANGE_TAILS.length)];
}

function cli(conn, args, env = {}) {
  return runCli(args, {
    timeout: 300e3,
    env: { AWS_ENDPOINT_URL: conn.endpoint, AWS_ACCESS_KEY_ID: conn.accessKeyId, AWS_SECRET_ACCESS_KEY: conn.secretAccessKey, AWS_REGION: conn.region, ...env },
  });
}

function oneLine(stderr) {
  const lines = stderr.trim().split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  expect(lines[0]).not.toMatch(/^\s+at |Error:|internal error/);
  return lines[0];
}

function localFiles(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p); else out.push({ key: path.relative(dir, p).split(path.sep).join('/'), size: fs.statSync(p).size });
    }
  };
  walk(dir);
  return out;
}

/**
 * name: a server of servers/index.js. keep(key, allKeys): keys the server can keep at all (its own
 * sequential listing being the truth, a server that cannot list a key faithfully even so
 * leaves it out); see docs/compatibility.md. controlKeysListed: false where the
 * server's own listing breaks on keys with control characters at page ends (its raw XML
 * continuation token): s3blitz must then list them exactly or stop with one line, exit 3.
 * writeArgs: options every s3blitz command that writes to the server is given (a server that
 * loses concurrent writes it answered 200 is written one object at a time, as docs/compatibility.md says).
 * awkwardKeys: how many awkward keys to draw (the first of one seeded sequence), before the
 * server's own refusals.
 * wrongChecksums: algorithms whose full-object (or composite) checksum of a multipart upload the
 * server stores wrong (moto: a CRC32 labelled as the algorithm asked for): s3blitz must fail
 * such an upload, naming the values, rather than leave it unnoticed.
 * extra(ctx): more tests of this
 * server, with ctx {cli(args, env), bucket(name), putAll(bucket, [{key, body}])}.
 */
function compatSuite(name, { seed = 17, keep = () => true, controlKeysListed = true, writeArgs = [], wrongChecksums = [], awkwardKeys = 2000, extra } = {}) {
  // A test here runs several whole-bucket commands against a server that may be slow (moto, in
  // Python, took over 120 s for one sync, compare and sync again on a busy CI machine): the
  // deadline only catches a hang, so it is as long as the three commands' own (cli's 300 s).
  jest.setTimeout(900e3);
  describe(`compatibility: ${name}`, () => {
    let conn, client, truth, tmp;
    const src = 'src';
    const bucket = async (b) => { await client.send(new CreateBucketCommand({ Bucket: b })); return b; };
    // An s3blitz command that writes to the server, with the server's writeArgs.
    const write = (c, args, env) => cli(c, [...args, ...writeArgs], env);

    beforeAll(async () => {
      conn = await startServer(name);
      client = clientFor(conn);
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), `s3blitz-compat-${name}-`));
      await bucket(src);
      const items = sourceKeys(seed, keep, awkwardKeys);
      const refused = await putAll(client, src, items);
      // Multipart sources (two and three parts) and a single-part object over the copy threshold.
      await putMultipart(src, 'big/two-parts', [5 * MiB, 1 * MiB], { client });
      await putMultipart(src, 'big/three-parts', [5 * MiB, 5 * MiB, 2 * MiB], { client });
      await client.send(new PutObjectCommand({ Bucket: src, Key: 'big/single-9MiB', Body: Buffer.alloc(9 * MiB, 7) }));
      // Keys the server lists under another name than they were written with: out, where the
      // server lets them be deleted by the name they were written with.
      const stored = new Set((await sequentialList(client, src)).map((o) => o.Key));
      const uploaded = new Set(items.map((i) => i.key));
      const renamed = items.filter((i) => !stored.has(i.key) && !refused.some((r) => r.key === i.key)).map((i) => i.key);
      for (const key of renamed) await client.send(new DeleteObjectCommand({ Bucket: src, Key: key }));
      truth = await sequentialList(client, src);
      // Names the server made of others (SeaweedFS lists "a//b" as "a/b"): it answers to them, so they stay.
      const made = truth.filter((o) => !uploaded.has(o.Key) && !o.Key.startsWith('big/'));
      log(name, `${conn.version}: ${truth.length} objects; ${refused.length} keys refused (${[...new Set(refused.map((r) => r.reason))].join(', ')}), ` +
        `${renamed.length} listed under another name (${renamed.slice(0, 3).map((k) => JSON.stringify(k)).join(' ')}), ${made.length} of those names left as the server lists them`);
      expect(truth.length).toBeGreaterThan(1800); // the tree (1,500) and hundreds of awkward keys at least
    }, 1500e3); // a first run installs or builds the server (a Go build can take several minutes)

    afterAll(async () => {
      if (client) client.destroy();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
      if (conn) await conn.stop();
    });

    const expectedKeys = () => truth.map((o) => o.Key).sort(byUtf8);

    test('ls --json lists exactly the server\'s own listing, in S3 key order, run after run', async () => {
      for (let run = 0; run < (name === 'seaweedfs' ? 3 : 1); run++) {
        const r = await cli(conn, ['ls', `s3://${src}`, '--json']);
        expect({ code: r.code, stderr: r.stderr.replace(/^s3blitz: .*(cannot be trusted|UTF-8 key order).*\n/m, '') }).toEqual({ code: 0, stderr: '' });
        const got = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
        expect(got.map((o) => o.Key)).toEqual(expectedKeys());
        const bySize = new Map(truth.map((o) => [o.Key, [o.Size, o.ETag]]));
        expect(got.every((o) => bySize.get(o.Key)[0] === o.Size && bySize.get(o.Key)[1] === o.ETag)).toBe(true);
        if (r.stderr) log(name, `ls said: ${r.stderr.trim()}`);
      }
      const un = await cli(conn, ['ls', `s3://${src}`, '--unordered', '--json']);
      expect(un.code).toBe(0);
      expect(un.stdout.trim().split('\n').map((l) => JSON.parse(l).Key).sort(byUtf8)).toEqual(expectedKeys());
    });

    test('summarize totals equal the listing\'s', async () => {
      const r = await cli(conn, ['summarize', `s3://${src}`, '--json']);
      expect(r.code).toBe(0);
      const s = JSON.parse(r.stdout);
      expect([s.objects, s.bytes]).toEqual([truth.length, truth.reduce((a, o) => a + o.Size, 0)]);
    });

    test('cp bucket to bucket copies every key with its size, and single-part ETags', async () => {
      const dst = await bucket('cp-dst');
      const r = await write(conn, ['cp', `s3://${src}`, `s3://${dst}`, '--large-copy-threshold', '8MiB', '--json', '--no-journal']);
      // On a failure, what it said instead of the JSON it did not print.
      expect({ code: r.code, failures: r.code === 0 ? JSON.parse(r.stdout).failures : r.stderr }).toEqual({ code: 0, failures: [] });
      const got = await sequentialList(client, dst);
      expect(got.map((o) => o.Key).sort(byUtf8)).toEqual(expectedKeys());
      const want = new Map(truth.map((o) => [o.Key, o]));
      for (const o of got) {
        expect([o.Key, o.Size]).toEqual([o.Key, want.get(o.Key).Size]);
        const etag = want.get(o.Key).ETag;
        if (!/-\d+"$/.test(etag)) expect([o.Key, o.ETag]).toEqual([o.Key, etag]);
      }
      if (r.stderr) log(name, `cp said: ${r.stderr.trim()}`);
    });

    test('sync, then compare says identical and a second sync copies nothing', async () => {
      const dst = await bucket('sync-dst');
      const first = await write(conn, ['sync', `s3://${src}`, `s3://${dst}`, '--large-copy-threshold', '8MiB', '--json', '--no-journal']);
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout).copied.objects).toBe(truth.length);
      const cmp = await cli(conn, ['compare', `s3://${src}`, `s3://${dst}`, '--json']);
      expect({ code: cmp.code, identical: JSON.parse(cmp.stdout).identical }).toEqual({ code: 0, identical: true });
      const again = await write(conn, ['sync', `s3://${src}`, `s3://${dst}`, '--large-copy-threshold', '8MiB', '--json', '--no-journal']);
      expect(again.code).toBe(0);
      expect(JSON.parse(again.stdout).copied.objects).toBe(0);
      log(name, `compare classes after sync: ${JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(cmp.stdout).classes).filter(([, t]) => t.objects)))}`);
    });

    test(`mv bucket to bucket: a drawn sample of the server's keys (awkward ones too) lands whole, the sources go (seed ${seed + 41})`, async () => {
      // The sample as the server lists it (names it answers to), its bodies regenerated, and two multipart objects.
      const r = prng(seed + 41);
      const sample = truth.filter((o) => !o.Key.startsWith('big/') && r.next() < 300 / truth.length);
      const from = await bucket('move-src');
      const refused = await putAll(client, from, sample.map((o) => ({ key: o.Key, body: Buffer.alloc(o.Size, 121) })));
      expect(refused).toEqual([]);
      await putMultipart(from, 'big/moved-parts', [5 * MiB, 1 * MiB], { client });
      const want = await sequentialList(client, from);
      const to = await bucket('move-dst');
      const mv = await write(conn, ['mv', `s3://${from}`, `s3://${to}`, '--large-copy-threshold', '5MiB', '--json']);
      const out = mv.code === 0 ? JSON.parse(mv.stdout) : null;
      expect({ code: mv.code, stderr: mv.code === 0 ? '' : mv.stderr }).toEqual({ code: 0, stderr: '' });
      expect(out.moved.objects).toBe(want.length);
      const landed = await sequentialList(client, to);
      expect(landed.map((o) => [o.Key, o.Size]).sort((x, y) => byUtf8(x[0], y[0]))).toEqual(want.map((o) => [o.Key, o.Size]).sort((x, y) => byUtf8(x[0], y[0])));
      expect(await sequentialList(client, from)).toEqual([]);
      log(name, `mv of ${want.length} objects: proven ${JSON.stringify(out.provenBy)}${mv.stderr ? `; said: ${mv.stderr.trim()}` : ''}`);
    });

    test('download and upload: counts and bytes equal', async () => {
      const tree = truth.filter((o) => o.Key.startsWith('logs/'));
      const down = path.join(tmp, 'down');
      const d = await cli(conn, ['cp', `s3://${src}/logs/`, down, '--json', '--no-journal']);
      expect(d.code).toBe(0);
      const files = localFiles(down);
      expect([files.length, files.reduce((a, f) => a + f.size, 0)]).toEqual([tree.length, tree.reduce((a, o) => a + o.Size, 0)]);
      const up = await bucket('upload');
      const u = await write(conn, ['cp', down, `s3://${up}/logs/`, '--json', '--no-journal']);
      expect(u.code).toBe(0);
      const back = await sequentialList(client, up);
      expect(back.map((o) => [o.Key, o.Size]).sort((a, b) => byUtf8(a[0], b[0]))).toEqual(tree.map((o) => [o.Key, o.Size]).sort((a, b) => byUtf8(a[0], b[0])));
    });

    test('checksums: uploads in every algorithm are confirmed, or refused naming the values; downloads are checked', async () => {
      const r = prng(seed + 29);
      const dir = path.join(tmp, 'ck-up');
      fs.mkdirSync(dir, { recursive: true });
      const bodies = { one: r.bytes(1 + r.int(4096)), parts: r.bytes(5 * MiB + 1 + r.int(MiB)) };
      for (const [k, v] of Object.entries(bodies)) fs.writeFileSync(path.join(dir, k), v);
      const b = await bucket('checksums');
      const seen = [];
      for (const algorithm of ['CRC64NVME', 'CRC32', 'CRC32C', 'SHA256']) {
        const up = await write(conn, ['cp', dir, `s3://${b}/${algorithm}/`, '--checksum-algorithm', algorithm, '--large-copy-threshold', '5MiB', '--part-size', '5MiB', '--json', '--no-journal']);
        const out = JSON.parse(up.stdout);
        const stored = {};
        for (const k of Object.keys(bodies)) {
          try {
            const h = await client.send(new HeadObjectCommand({ Bucket: b, Key: `${algorithm}/${k}`, ChecksumMode: 'ENABLED' }));
            stored[k] = h[`Checksum${algorithm}`] || null;
          } catch { stored[k] = 'missing'; }
        }
        const want = {};
        for (const [k, v] of Object.entries(bodies)) want[k] = k === 'parts' && algorithm === 'SHA256' ? compositeSha256(v, 5 * MiB) : await streamChecksum([v], algorithm);
        // A composite value may be stored without its "-N" (moto).
        for (const k of Object.keys(bodies)) if (stored[k] && stored[k] === want[k].replace(/-\d+$/, '')) stored[k] = want[k];
        seen.push(`${algorithm}: stored ${Object.keys(bodies).map((k) => `${k} ${stored[k] === want[k] ? 'right' : stored[k] ? 'wrong' : 'none'}`).join(', ')}; ` +
          `upload exit ${up.code}, confirmed ${out.stats.checksumsConfirmed}, unconfirmed ${out.stats.checksumsUnconfirmed}` +
          `${out.failures.length ? ` (${out.failures.map((f) => `${f.key}: ${f.reason}`).join('; ')})` : ''}`);
        log(name, `checksums ${seen[seen.length - 1]}`);
        if (wrongChecksums.includes(algorithm)) {
          expect({ code: up.code, failed: out.failures.map((f) => [f.key, /^the completed upload: the server stored \S+ \S+ where the bytes sent have \S+ \(the object is written/.test(f.reason)]) })
            .toEqual({ code: 1, failed: [['parts', true]] });
          continue;
        }
        expect(up.code).toBe(0);
        // What the server answered, or a HEAD, confirmed; what it stores is what was sent, or nothing.
        expect(out.stats.checksumsConfirmed + out.stats.checksumsUnconfirmed).toBe(2);
        for (const k of Object.keys(bodies)) expect([want[k], null]).toContain(stored[k]);
        const down = path.join(tmp, `ck-down-${algorithm}`);
        const d = await cli(conn, ['cp', `s3://${b}/${algorithm}/`, down, '--large-copy-threshold', '5MiB', '--json', '--no-journal']);
        expect(d.code).toBe(0);
        const dout = JSON.parse(d.stdout);
        log(name, `checksums ${algorithm}: download confirmed ${dout.stats.checksumsConfirmed}, unconfirmed ${dout.stats.checksumsUnconfirmed}`);
        for (const [k, v] of Object.entries(bodies)) expect(fs.readFileSync(path.join(down, k)).equals(v)).toBe(true);
      }
    });

    test('sync <folder> s3://b --delete never deletes a key the folder has, whatever order the server lists in', async () => {
      // U+10000 sorts before U+E000 and U+FF21 in UTF-16, after them in S3's UTF-8 order.
      const names = { '\u{10000}astral': 'a', '\uE000private': 'bb', '\uFF21fullwidth': 'ccc', plain: 'dddd' };
      const dir = path.join(tmp, 'order');
      fs.mkdirSync(dir);
      for (const [n, body] of Object.entries(names)) fs.writeFileSync(path.join(dir, n), body);
      for (const sequential of [[], ['--sequential']]) {
        const b = await bucket(`order${sequential.length}`);
        await putAll(client, b, [...Object.entries(names), ['zz-only-in-target', 'x']].map(([key, body]) => ({ key, body })));
        const r = await write(conn, ['sync', dir, `s3://${b}`, '--delete', '--json', '--no-journal', ...sequential]);
        expect(r.code).toBe(0);
        expect(JSON.parse(r.stdout).deleted.objects).toBe(1);
        expect((await sequentialList(client, b)).map((o) => o.Key).sort(byUtf8)).toEqual(Object.keys(names).sort(byUtf8));
      }
    });


    describe('ranges where stores misread StartAfter: exactly the keys in the range', () => {
      // A fresh seed each run; replay one with S3BLITZ_TEST_SEED.
      const seed = Number(process.env.S3BLITZ_TEST_SEED) || Date.now() % 1e6;
      const r = prng(seed);
      let keys; // the server's own listing of the bucket, in S3's order
      const rb = 'ranges';
      const within = ([a, b]) => keys.filter((k) => (a === undefined || byUtf8(k, a) > 0) && (b === undefined || byUtf8(k, b) <= 0));
      const rangeArgs = ([a, b]) => [...(a !== undefined ? ['--start-after', a] : []), ...(b !== undefined ? ['--stop-at', b] : [])];
      const jsonKeys = (stdout) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).Key);
      const ranges = [];

      beforeAll(async () => {
        log(name, `ranges: seed ${seed} (replay with S3BLITZ_TEST_SEED=${seed})`);
        await bucket(rb);
        await putAll(client, rb, rangeKeys(r, 260).map((key) => ({ key, body: Buffer.from(key) })));
        keys = (await sequentialList(client, rb)).map((o) => o.Key).sort(byUtf8);
        // The fixed cases of the issue, then generated ones.
        ranges.push(['a', 'a/b'], ['ord/Z', undefined], ['data-2024/x', 'ord/Za'], ['ord/\uFF21', 'ord/\u{1F600}/child'], ['a-', 'x']);
        while (ranges.length < 11) {
          const a = rangeBound(r, keys), b = rangeBound(r, keys);
          if (a === b) continue;
          ranges.push(byUtf8(a, b) < 0 ? [a, b] : [b, a]);
        }
        ranges.push([rangeBound(r, keys), undefined], [undefined, rangeBound(r, keys)]);
      }, 300e3);

      test('ls, in order and --sequential', async () => {
        for (const [i, range] of ranges.entries()) {
          const args = i % 3 === 2 ? ['--sequential'] : [];
          const res = await cli(conn, ['ls', `s3://${rb}`, '--json', ...rangeArgs(range), ...args]);
          expect({ range, args, code: res.code, keys: res.code === 0 ? jsonKeys(res.stdout) : res.stderr }).toEqual({ range, args, code: 0, keys: within(range) });
        }
      });

      test('cp and sync of a range', async () => {
        for (const [i, range] of ranges.slice(0, 4).entries()) {
          const verb = i % 2 ? 'sync' : 'cp';
          const dst = await bucket(`range-${verb}-${i}`);
          const res = await write(conn, [verb, `s3://${rb}`, `s3://${dst}`, ...rangeArgs(range), '--json', '--no-journal']);
          expect({ range, verb, code: res.code }).toEqual({ range, verb, code: 0 });
          expect({ range, verb, keys: (await sequentialList(client, dst)).map((o) => o.Key).sort(byUtf8) }).toEqual({ range, verb, keys: within(range) });
        }
      });

      test('shards of the bucket and of a range: together every key once', async () => {
        for (const [range, n] of [[[undefined, undefined], 4], [ranges[2], 3]]) {
          const got = [];
          for (let i = 0; i < n; i++) {
            const res = await cli(conn, ['ls', `s3://${rb}`, '--json', '--shards', String(n), '--shard', `${i}/${n}`, ...rangeArgs(range)]);
            expect({ range, shard: i, code: res.code }).toEqual({ range, shard: i, code: 0 });
            got.push(...jsonKeys(res.stdout));
          }
          expect({ range, keys: got.sort(byUtf8) }).toEqual({ range, keys: within(range) });
        }
      });

      test('a copy stopped part way and resumed from its watermark', async () => {
        const lib = require('../../src');
        const range = [ranges[1][0], undefined];
        const want = within(range);
        const dst = await bucket('range-resumed');
        const opts = {
          source: `s3://${rb}`, target: `s3://${dst}`, startAfter: range[0], endpointUrl: conn.endpoint, region: conn.region, forcePathStyle: true,
          credentials: { accessKeyId: conn.accessKeyId, secretAccessKey: conn.secretAccessKey }, copyConcurrency: 2,
        };
        const stop = new AbortController();
        let copied = 0;
        const first = await lib.copy({ ...opts, stopSignal: stop.signal, onObject: () => { if (++copied === Math.floor(want.length / 3)) stop.abort(); } });
        expect({ interrupted: first.interrupted, journal: Boolean(first.journal) }).toEqual({ interrupted: true, journal: true });
        const notes = [];
        const second = await lib.copy({ ...opts, log: (m) => notes.push(m) });
        expect({ complete: second.complete, failed: second.failed.objects }).toEqual({ complete: true, failed: 0 });
        expect(notes.join('\n')).toMatch(/resuming from/);
        expect((await sequentialList(client, dst)).map((o) => o.Key).sort(byUtf8)).toEqual(want);
      });
    });

    if (!controlKeysListed) {
      test('keys with control characters at page ends: listed exactly, or exit 3 saying why', async () => {
        const b = await bucket('ctl');
        const keys = [];
        for (let i = 0; i < 4000; i++) keys.push(`d${i % 3}/k${i}\u0002${i % 5 ? '' : '\u0001x'}`);
        await putAll(client, b, keys.map((key) => ({ key, body: 'x' })));
        for (const args of [[], ['--sequential']]) {
          const r = await cli(conn, ['ls', `s3://${b}`, '--json', ...args]);
          log(name, `ls ${args.join(' ')} of control-character keys: exit ${r.code}; ${r.stderr.trim()}`);
          if (r.code === 0) expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).Key)).toEqual(keys.sort(byUtf8));
          else expect({ code: r.code, lines: r.stderr.trim().split('\n').length }).toEqual({ code: 3, lines: 1 });
        }
      });
    }

    // Conditional requests, as each server answers them (docs/compatibility.md): a key
    // rewritten between the listing and its delete is never deleted where the server honours
    // conditional deletes, and the lack of support is said where it does not; --no-overwrite
    // never replaces a key that exists, whichever request types the server ignores it on.
    test('rm of a key rewritten after its listing: kept (changed), or the server\'s lack of conditional deletes said; --require-conditional refuses there', async () => {
      const b = await bucket('cond-rm');
      const r = prng(seed + 27);
      const keys = Array.from({ length: 20 }, (_, i) => `c/${r.int(1e6)}-${i}.txt`);
      await putAll(client, b, keys.map((key) => ({ key, body: Buffer.from(`v1 ${key}`) })));
      const victim = keys[r.int(keys.length)];
      const proxy = await startFaultProxy({ target: conn.endpoint });
      let fired = false;
      proxy.onRequest((info) => {
        if (fired || info.bucket !== b || !(info.method === 'POST' || info.method === 'DELETE')) return undefined;
        fired = true; // before the first delete request (the probe's): the listing is done
        return client.send(new PutObjectCommand({ Bucket: b, Key: victim, Body: Buffer.from('v2, rewritten meanwhile') }));
      });
      try {
        const required = await cli(conn, ['rm', `s3://${b}/c/`, '--require-conditional', '--json', '--no-journal'], { AWS_ENDPOINT_URL: proxy.endpoint });
        const left = (await sequentialList(client, b)).map((o) => o.Key);
        if (required.code === 4) {
          // Refused before any delete: everything is there, and the line says why.
          expect(oneLine(required.stderr)).toMatch(/does not honour conditional deletes|could not tell whether the server honours conditional deletes/);
          expect(left.sort(byUtf8)).toEqual([...keys].sort(byUtf8));
          const plain = await cli(conn, ['rm', `s3://${b}/c/`, '--json', '--no-journal']);
          expect(plain.code).toBe(0);
          expect(plain.stderr).toMatch(/conditional deletes.*--require-conditional refuses instead/);
          log(name, `conditional deletes: not honoured: ${oneLine(required.stderr)}`);
        } else {
          expect(required.code).toBe(1);
          const out = JSON.parse(required.stdout);
          expect([out.deleted.objects, out.changed.objects]).toEqual([keys.length - 1, 1]);
          expect(left).toEqual([victim]);
          const got = await client.send(new GetObjectCommand({ Bucket: b, Key: victim }));
          expect(Buffer.from(await got.Body.transformToByteArray()).toString()).toBe('v2, rewritten meanwhile');
          log(name, 'conditional deletes: honoured (the rewritten key was kept)');
        }
      } finally {
        await proxy.close();
      }
    });

    test('--no-overwrite never replaces an existing key: cp (small and multipart), sync and an upload', async () => {
      const from = await bucket('cond-src');
      const to = await bucket('cond-dst');
      const r = prng(seed + 28);
      const keys = Array.from({ length: 12 }, (_, i) => `n/${r.int(1e6)}-${i}.bin`);
      await putAll(client, from, keys.map((key) => ({ key, body: crypto.randomBytes(100 + r.int(1000)) })));
      await putMultipart(from, 'n/zz-large', [5 * MiB, 1 * MiB], { client });
      const existing = [keys[2], keys[7], 'n/zz-large'];
      const theirs = Buffer.from('theirs: must stay');
      await putAll(client, to, existing.map((key) => ({ key, body: theirs })));
      const body = async (b, key) => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: b, Key: key }))).Body.transformToByteArray()).toString();
      const res = await write(conn, ['cp', `s3://${from}/n/`, `s3://${to}/n/`, '--no-overwrite', '--large-copy-threshold', '5MiB', '--json', '--no-journal']);
      log(name, `cp --no-overwrite: exit ${res.code}; ${res.stderr.trim().split('\n').filter((l) => !/^s3blitz: skipped/.test(l)).join(' | ')}`);
      if (res.code === 4) {
        // Refused: nothing written, the line names what the server ignores.
        expect(oneLine(res.stderr)).toMatch(/does not honour If-None-Match/);
        expect((await sequentialList(client, to)).map((o) => o.Key).sort(byUtf8)).toEqual([...existing].sort(byUtf8));
      } else {
        expect(res.code).toBe(0);
        const out = JSON.parse(res.stdout);
        expect([out.copied.objects, out.skipped.objects, out.failed.objects]).toEqual([keys.length + 1 - existing.length, existing.length, 0]);
        expect((await sequentialList(client, to)).map((o) => o.Key).sort(byUtf8)).toEqual([...keys, 'n/zz-large'].sort(byUtf8));
      }
      for (const key of existing) expect(await body(to, key)).toBe(theirs.toString());
      const sy = await write(conn, ['sync', `s3://${from}/n/`, `s3://${to}/n/`, '--no-overwrite', '--json', '--no-journal']);
      expect([0, 4]).toContain(sy.code);
      for (const key of existing) expect(await body(to, key)).toBe(theirs.toString());
      const dir = path.join(tmp, 'cond-up');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'mine.txt'), 'mine');
      await putAll(client, to, [{ key: 'up/mine.txt', body: theirs }]);
      const up = await write(conn, ['cp', dir, `s3://${to}/up/`, '--no-overwrite', '--json', '--no-journal']);
      expect([0, 4]).toContain(up.code);
      expect(await body(to, 'up/mine.txt')).toBe(theirs.toString());
    });

    if (extra) extra({ cli: (args, env) => cli(conn, args, env), bucket, putAll: (b, items) => putAll(client, b, items) });

    test('a wrong secret and a missing bucket: one line, exit 3', async () => {
      const wrong = await cli(conn, ['ls', `s3://${src}`], { AWS_SECRET_ACCESS_KEY: 'not-the-secret-0000' });
      expect(wrong.code).toBe(3);
      expect(oneLine(wrong.stderr)).toMatch(/secret key does not match|access denied|not recognised/);
      const missing = await cli(conn, ['ls', 's3://no-such-bucket-s3blitz']);
      expect(missing.code).toBe(3);
      expect(oneLine(missing.stderr)).toMatch(/does not exist/);
    });
  });
}

module.exports = { compatSuite, sequentialList, byUtf8 };
