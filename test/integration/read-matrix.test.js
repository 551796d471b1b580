'use strict';
// Every command that reads a source × every kind of source × every kind of target (issue 27),
// enumerated from the three tables below, never listed by hand. A cell the command accepts is
// run through the CLI and its result checked byte for byte against a reference computed here
// without s3blitz: GetObject with VersionId through the SDK for S3 sources (current, --as-of,
// --version-id), the files themselves for a local folder, the bytes written for stdin. A cell
// the command does not accept must be refused before anything is written: exit 2, one line on
// stderr giving the reason the tables expect, nothing on stdout, the target untouched.
//
// The source is a versioned MinIO bucket with keys and bodies from a seeded PRNG (the seed is
// printed; S3BLITZ_TEST_SEED replays one): written, a moment T taken, then a key overwritten
// with a body of the same size, the multipart key overwritten, a key deleted and one created.
// "S3, other endpoint" is the same MinIO reached through the fault proxy in pass-through
// (--to-endpoint-url), so copies stream through the client; the test checks they went there.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { GetObjectCommand, PutObjectCommand } = require('@aws-sdk/client-s3');
const { runCli, createBucket, uniqueBucket, s3client, putMultipart, sequentialList, connection } = require('../helpers/s3env');
const { createVersionedBucket, putVersion, deleteKey, walkVersions, latest, serverPast, versionsAt } = require('../helpers/versions');
const { startFaultProxy } = require('../helpers/fault-proxy');
const { prng } = require('../helpers/keysets');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`read-matrix seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);
const r = prng(SEED);
const MiB = 1024 * 1024;

const randomBytes = (n) => r.bytes(n);
const randomName = (i) => `${r.pick(['', 'x/', 'x/y/', 'ü é/'])}f${i}-${Math.floor(r.next() * 2 ** 32).toString(36)}.bin`;
const randomBody = () => randomBytes(r.pick([0, 1, 1 + r.int(200), 1 + r.int(30000)]));
const byUtf8 = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const base = (k) => k.slice(k.lastIndexOf('/') + 1);

// Transfers of more than 1 MiB go in 5 MiB parts: the multipart key is read and written in parts.
const PARTS = ['--large-copy-threshold', '1MiB', '--part-size', '5MiB'];

// ---------------------------------------------------------------------------------------
// The dimensions. What a command, a source and a target are, as facts the rules read.

const COMMANDS = {
  // writes: copies to the target; target: takes a target argument (else it prints to stdout);
  // stdio: takes "-"; oneVersion: takes --version-id; s3Only: reads S3 objects only;
  // folders: reads and writes folders only (a path that is a file is wrong); one: reads one object.
  // ls and cat take no target: "stdout" is their own output.
  cp: { writes: true, target: true, stdio: true, oneVersion: true },
  sync: { writes: true, target: true, folders: true },
  compare: { target: true, folders: true },
  ls: {},
  cat: { oneVersion: true, s3Only: true, one: true },
};

const SOURCES = {
  // s3: an S3 source; versionId: names one version of one key; stdio: "-"; toS3Only: its
  // bytes can only go to an S3 object (cp - s3://bucket/key).
  s3: { s3: true },
  's3-as-of': { s3: true },
  's3-version-id': { s3: true, versionId: true, one: true },
  local: {},
  stdin: { stdio: true, toS3Only: true, one: true },
};

const TARGETS = {
  // stdio: "-" (for commands without a target: their own output); other: another endpoint
  // (--to-endpoint-url); file: one file;
  // fromS3Only: takes bytes from an S3 object only (cp s3://bucket/key -).
  s3: { s3: true },
  's3-other': { s3: true, other: true },
  'local-folder': {},
  'local-file': { file: true, one: true },
  stdout: { stdio: true, one: true, fromS3Only: true },
};

// Why a command refuses a cell (the line it must print), or null when it accepts it. The
// rules run in the order the CLI meets them: arguments, then options, then paths.
function refusal(c, s, t) {
  const C = COMMANDS[c], S = SOURCES[s], T = TARGETS[t];
  if (!C.target && T.other) return { why: `${c} takes no target, nor its endpoint`, line: /unknown option '--to-endpoint-url'/ };
  if (!C.target && !T.stdio) return { why: `${c} takes no target: it prints to stdout`, line: new RegExp(`too many arguments for '${c}'`) };
  if ((S.stdio || (T.stdio && C.target)) && !C.stdio) return { why: `"-" is cp's alone`, line: /"-" \(stdin or stdout\) is for cp/ };
  if (S.versionId && !C.oneVersion) return { why: `${c} reads a listing, not one version`, line: /--version-id names one version of one key/ };
  if (C.s3Only && !S.s3) return { why: `${c} reads S3 objects`, line: new RegExp(`${c} needs an s3:// path to an object`) };
  if (C.folders && T.file) return { why: `${c} reads and writes folders, not a file`, line: /is a file, not a folder/ };
  if (!C.target) return null; // stdout is the command's own output
  if (S.stdio && T.stdio) return { why: 'cp - - has no object on either side', line: /cp - -: give an s3:\/\/ object on one side/ };
  if (S.toS3Only && !T.s3) return { why: 'stdin goes to an S3 object', line: /cp - needs an s3:\/\/ path to an object/ };
  if (T.fromS3Only && !S.s3) return { why: 'stdout takes an S3 object', line: /cp to stdout \(-\) reads one S3 object/ };
  return null;
}

// One object (a key, a version, a file, stdin) where the command or either side reads or
// takes one; a folder of several otherwise, and always for the commands that read folders.
const shapeOf = (c, s, t) => {
  const C = COMMANDS[c];
  if (C.folders || !C.target) return C.one ? 'one' : SOURCES[s].one ? 'one' : 'many';
  return SOURCES[s].one || TARGETS[t].one ? 'one' : 'many';
};

const CELLS = [];
for (const command of Object.keys(COMMANDS)) {
  for (const source of Object.keys(SOURCES)) {
    for (const target of Object.keys(TARGETS)) {
      CELLS.push({ id: `${command}.${source}.${target}`, command, source, target, refused: refusal(command, source, target), shape: shapeOf(command, source, target) });
    }
  }
}
const ACCEPTED = CELLS.filter((c) => !c.refused).length;
console.log(`read-matrix: ${CELLS.length} cells (${Object.keys(COMMANDS).length} commands × ${Object.keys(SOURCES).length} sources × ${Object.keys(TARGETS).length} targets): ${ACCEPTED} run and checked against the SDK or the files, ${CELLS.length - ACCEPTED} refused (exit 2, one line)`);

// ---------------------------------------------------------------------------------------
// The world: a versioned source bucket, a target bucket, a local source folder, the proxy.

let SRC, DST, T, iso, proxy, tmp, localDir;
const ref = {}; // source kind -> {many: Map(relative key -> bytes), one: {key, name, body}, flags, paths}
const seen = { requests: 0, writes: 0 }; // through the proxy

async function getVersion(bucket, key, versionId) {
  const out = await s3client().send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: versionId }));
  return Buffer.from(await out.Body.transformToByteArray());
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-matrix-'));
  const scratch = await createBucket(uniqueBucket('matrix-clock'));
  SRC = await createVersionedBucket(uniqueBucket('matrix-src'));
  DST = await createBucket(uniqueBucket('matrix-dst'));
  proxy = await startFaultProxy({ target: connection().endpoint, rates: {} });
  proxy.onRequest((info) => { seen.requests++; if (info.method === 'PUT' || info.method === 'POST') seen.writes++; });

  // The source bucket: keys under m/, each written once, some twice, then T.
  const keys = Array.from({ length: 5 }, (_, i) => `m/${randomName(i)}`);
  const BIG = 'm/big.bin';
  for (const k of keys) await putVersion(SRC, k, randomBody());
  for (const k of keys.slice(0, 2)) await putVersion(SRC, k, randomBytes(1 + r.int(500)));
  await putMultipart(SRC, BIG, [randomBytes(5 * MiB), randomBytes(MiB)]);
  T = latest(await walkVersions(SRC));
  iso = new Date(T).toISOString();
  await serverPast(scratch, T);
  // After T: one key the same size with other bytes, the multipart key anew, one deleted, one new.
  const [changed, deleted] = [keys[0], keys[3]];
  const old = await getVersion(SRC, changed);
  const other = randomBytes(Math.max(old.length, 1));
  other[0] = old.length ? old[0] ^ 0xff : other[0];
  await putVersion(SRC, changed, other);
  await putMultipart(SRC, BIG, [randomBytes(5 * MiB), randomBytes(MiB)]);
  await deleteKey(SRC, deleted);
  await putVersion(SRC, `m/${randomName(9)}`, randomBody());

  // References, by the SDK: today's objects, the objects at T, one old version.
  const walk = await walkVersions(SRC, { prefix: 'm/' });
  const bytesOf = async (entries) => {
    const m = new Map();
    for (const e of entries) m.set(e.Key.slice(2), await getVersion(SRC, e.Key, e.VersionId));
    return m;
  };
  const one = async (key, versionId) => ({ key, name: base(key), body: await getVersion(SRC, key, versionId) });
  const atT = versionsAt(walk, T);
  const oldest = walk.filter((e) => e.Key === deleted).pop();
  ref.s3 = { many: await bytesOf(walk.filter((e) => e.IsLatest && !e.DeleteMarker)), one: await one(changed), flags: [] };
  ref['s3-as-of'] = { many: await bytesOf(atT), one: await one(BIG, atT.find((e) => e.Key === BIG).VersionId), flags: ['--as-of', iso] };
  ref['s3-version-id'] = { one: await one(deleted, oldest.VersionId), flags: ['--version-id', oldest.VersionId] };
  // The references differ where the cells must tell them apart.
  expect(ref.s3.many.get(changed.slice(2)).equals(ref['s3-as-of'].many.get(changed.slice(2)))).toBe(false);
  expect(ref.s3.many.has(deleted.slice(2))).toBe(false);
  expect(ref['s3-as-of'].many.has(deleted.slice(2))).toBe(true);
  expect(ref.s3.many.get('big.bin').equals(ref['s3-as-of'].one.body)).toBe(false);

  // A local folder of generated files (one of 6 MiB: uploaded in parts), read back as the reference.
  localDir = path.join(tmp, 'local-src');
  const files = [...Array.from({ length: 4 }, (_, i) => [randomName(20 + i), randomBody()]), ['big-local.bin', randomBytes(6 * MiB)]];
  for (const [name, body] of files) {
    fs.mkdirSync(path.dirname(path.join(localDir, name)), { recursive: true });
    fs.writeFileSync(path.join(localDir, name), body);
  }
  const many = new Map(files.map(([name]) => [name, fs.readFileSync(path.join(localDir, name))]));
  const firstFile = files[0][0];
  ref.local = { many, one: { key: firstFile, name: base(firstFile), body: many.get(firstFile) }, flags: [] };
  ref.stdin = { one: { key: '-', name: 'from-stdin.bin', body: randomBytes(40000 + r.int(40000)) }, flags: [] };
}, 300000);

afterAll(async () => {
  if (proxy) await proxy.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------
// How a cell's source and target are written on the command line, and read back.

function sourceArgs(cell) {
  const R = ref[cell.source];
  if (cell.source === 'stdin') return { args: ['-'], input: R.one.body };
  const one = cell.shape === 'one';
  if (cell.source === 'local') return { args: [one ? path.join(localDir, R.one.key) : localDir] };
  return { args: [one ? `s3://${SRC}/${R.one.key}` : `s3://${SRC}/m/`, ...R.flags] };
}

// What the target should hold: relative key -> bytes.
function expected(cell) {
  const R = ref[cell.source];
  return cell.shape === 'one' ? new Map([[R.one.name, R.one.body]]) : R.many;
}

async function listBytes(bucket, prefix) {
  const m = new Map();
  for (const o of await sequentialList(bucket, { prefix })) m.set(o.Key.slice(prefix.length), await getVersion(bucket, o.Key));
  return m;
}

function folderBytes(dir) {
  const m = new Map();
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else m.set(path.relative(dir, p).split(path.sep).join('/'), fs.readFileSync(p));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return m;
}

const JUNK = Buffer.from('junk that a refused command must leave as it is\n');

// The target of a cell: its arguments, what it holds afterwards, and how to fill it (compare).
function targetOf(cell) {
  const name = ref[cell.source].one ? ref[cell.source].one.name : 'x.bin';
  const prefix = `${cell.id}/`;
  const dir = path.join(tmp, cell.id);
  const file = path.join(tmp, `${cell.id}.bin`);
  switch (cell.target) {
    case 's3':
    case 's3-other':
      return {
        args: [cell.shape === 'one' ? `s3://${DST}/${prefix}${name}` : `s3://${DST}/${prefix}`],
        flags: cell.target === 's3-other' ? ['--to-endpoint-url', proxy.endpoint] : [],
        read: () => listBytes(DST, prefix),
        fill: async (m) => { for (const [k, body] of m) await s3client().send(new PutObjectCommand({ Bucket: DST, Key: prefix + k, Body: body })); },
      };
    case 'local-folder':
      return {
        args: [cell.shape === 'one' ? `${dir}${path.sep}` : dir], flags: [],
        read: () => folderBytes(dir),
        fill: async (m) => { for (const [k, body] of m) { fs.mkdirSync(path.dirname(path.join(dir, k)), { recursive: true }); fs.writeFileSync(path.join(dir, k), body); } },
      };
    case 'local-file':
      fs.writeFileSync(file, JUNK);
      return { args: [file], flags: [], read: () => new Map([[name, fs.readFileSync(file)]]), untouched: () => fs.readFileSync(file).equals(JUNK) };
    default: // stdout: the command's own output
      return { args: COMMANDS[cell.command].target ? ['-'] : [], flags: [], read: (run) => new Map([[name, run.stdoutBytes]]) };
  }
}

// Two maps of bytes, equal byte for byte (a mismatch names its key, sizes and first differing byte).
function expectSameBytes(got, want) {
  expect([...got.keys()].sort(byUtf8)).toEqual([...want.keys()].sort(byUtf8));
  for (const [k, body] of want) {
    const g = got.get(k);
    if (!g.equals(body)) {
      let i = 0;
      while (i < g.length && i < body.length && g[i] === body[i]) i++;
      throw new Error(`${JSON.stringify(k)}: ${g.length} bytes where ${body.length} were expected, first difference at byte ${i}`);
    }
  }
}

const totals = (m) => ({ objects: m.size, bytes: [...m.values()].reduce((n, b) => n + b.length, 0) });
const jsonLines = (s) => s.split('\n').filter(Boolean).map((l) => JSON.parse(l));

// ---------------------------------------------------------------------------------------
// The checks of an accepted cell, by what its command does.

const CHECKS = {
  // Writers: the target holds the reference's bytes; cp and sync count them as copied.
  async writes(cell, tgt, src) {
    const run = await runCli([cell.command, ...src.args, ...tgt.args, ...PARTS, ...tgt.flags, ...(cell.target === 'stdout' ? [] : ['--json'])], { input: src.input });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const want = expected(cell);
    expectSameBytes(await tgt.read(run), want);
    if (cell.target === 'stdout') return;
    const out = JSON.parse(run.stdout);
    if (cell.source === 'stdin') expect(out.bytes).toBe(totals(want).bytes);
    else expect(out.copied).toEqual(totals(want));
  },
  // compare: a target filled with the reference's bytes (by the SDK or fs) is identical, bytes
  // read where the listings cannot tell (--checksum=download); one object changed (same size, other
  // bytes) is the one difference.
  async compares(cell, tgt, src) {
    const want = expected(cell);
    await tgt.fill(want);
    const args = ['compare', ...src.args, ...tgt.args, '--checksum=download', ...tgt.flags];
    const same = await runCli([...args, '--json']);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    const out = JSON.parse(same.stdout);
    expect(out.identical).toBe(true);
    expect(out.classes.same).toEqual(totals(want));
    const victim = [...want.keys()].sort((a, b) => want.get(b).length - want.get(a).length)[0]; // the largest
    const changed = Buffer.from(want.get(victim));
    changed[changed.length - 1] ^= 0x5a;
    await tgt.fill(new Map([[victim, changed]]));
    const differs = await runCli([...args, '--json', '--show', 'only-source,only-target,size-differs,content-differs,unknown']);
    expect(differs.stderr).toBe('');
    expect(differs.code).toBe(1);
    expect(jsonLines(differs.stdout).map((l) => [l.class, l.key.slice(l.key.length - victim.length)])).toEqual([['content-differs', victim]]);
  },
  // ls: the keys and sizes of the reference, in UTF-8 order; an S3 listing's single-part ETags
  // are the MD5s of the reference's bytes (the version listed is the version read).
  async lists(cell, tgt, src) {
    const run = await runCli(['ls', ...src.args, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const want = expected(cell);
    const pre = SOURCES[cell.source].s3 ? 'm/' : '';
    const got = jsonLines(run.stdout);
    expect(got.map((it) => [it.Key, it.Size])).toEqual([...want.keys()].sort(byUtf8).map((k) => [pre + k, want.get(k).length]));
    const md5 = (b) => require('crypto').createHash('md5').update(b).digest('hex');
    for (const it of got) if (it.ETag && !it.ETag.includes('-')) expect(it.ETag.replace(/"/g, '')).toBe(md5(want.get(it.Key.slice(pre.length))));
  },
  // cat: the reference's bytes on stdout.
  async prints(cell, tgt, src) {
    const run = await runCli(['cat', ...src.args]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expectSameBytes(await tgt.read(run), expected(cell));
  },
};
const CHECK_OF = { cp: CHECKS.writes, sync: CHECKS.writes, compare: CHECKS.compares, ls: CHECKS.lists, cat: CHECKS.prints };

test('the matrix covers every combination once, and its refusals are the tables\' rules', () => {
  expect(new Set(CELLS.map((c) => c.id)).size).toBe(CELLS.length);
  expect(CELLS.length).toBe(Object.keys(COMMANDS).length * Object.keys(SOURCES).length * Object.keys(TARGETS).length);
  // Every command runs some cells, every source and target kind is run by some command.
  for (const [dim, key] of [[COMMANDS, 'command'], [SOURCES, 'source'], [TARGETS, 'target']]) {
    for (const k of Object.keys(dim)) expect([k, CELLS.some((c) => c[key] === k && !c.refused)]).toEqual([k, true]);
  }
});

describe.each(CELLS.map((c) => [c.id, c]))('%s', (id, cell) => {
  if (cell.refused) {
    test(`refused: ${cell.refused.why}`, async () => {
      const src = sourceArgs(cell);
      const tgt = targetOf(cell);
      const before = seen.requests;
      const run = await runCli([cell.command, ...src.args, ...tgt.args, ...tgt.flags], { input: src.input });
      expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(cell.refused.line);
      // Nothing was written.
      if (tgt.untouched) expect(tgt.untouched()).toBe(true);
      else if (cell.target !== 'stdout') expect((await tgt.read(run)).size).toBe(0);
      expect(seen.requests).toBe(before);
    });
    return;
  }
  test('accepted: the result is the reference, byte for byte', async () => {
    const src = sourceArgs(cell);
    const tgt = targetOf(cell);
    const before = { ...seen };
    await CHECK_OF[cell.command](cell, tgt, src);
    // The other endpoint is reached through the proxy (writes stream through the client),
    // and nothing else is.
    if (cell.target === 's3-other') {
      expect(seen.requests).toBeGreaterThan(before.requests);
      if (COMMANDS[cell.command].writes) expect(seen.writes).toBeGreaterThan(before.writes);
    } else expect(seen.requests).toBe(before.requests);
  });
});
