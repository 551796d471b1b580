'use strict';
// aws-cli's habits in s3blitz, each checked on MinIO against what aws-cli itself does on the
// same data: a line per object for cp, sync and rm; presigned URLs; ls's one-level view.
const crypto = require('crypto');
const { GetObjectCommand } = require('@aws-sdk/client-s3');
const { createBucket, putObjects, sequentialList, runCli, s3client } = require('../helpers/s3env');
const { runAws } = require('../helpers/awscli');
const { prng } = require('../generators/prng');

jest.setTimeout(600e3);

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`aws-habits seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);

const PARTS = ['data', 'logs', 'café', '中文', 'a b', 'x+y', '100%', 'd-1', 'd.2', 'e😀', 'Z', '0'];

// n distinct keys under p/, one to three levels deep, drawn from seed.
function keysOf(seed, n) {
  const r = prng(seed);
  const keys = new Set();
  while (keys.size < n) keys.add(`p/${Array.from({ length: 1 + r.int(3) }, () => r.pick(PARTS) + r.int(9)).join('/')}`);
  // MinIO keeps objects as files: a key that is also a folder's name would replace the folder.
  return [...keys].filter((k) => ![...keys].some((o) => o.startsWith(`${k}/`)));
}

// The lines of a run that name objects, trailing spaces (aws-cli's progress padding) cut,
// each run's own bucket names made neutral.
const lines = (text, names) => text.split(/[\r\n]/).filter((l) => /^(\(dryrun\) )?(move|delete|copy|upload|download): /.test(l))
  .map((l) => names.reduce((s, [from, to]) => s.split(from).join(to), l.trimEnd())).sort();

async function twins(keys) {
  const [a, b] = [await createBucket(), await createBucket()];
  await putObjects(a, keys);
  await putObjects(b, keys);
  return [a, b];
}

test(`cp, sync --delete and rm print a line per object as aws-cli does (seed ${SEED})`, async () => {
  const keys = keysOf(SEED, 30);
  const [a, b] = await twins(keys);
  expect(keys.length).toBeGreaterThan(15);
  // Extras in the targets: none a folder of a copied key or inside one (MinIO keeps objects as files).
  const copied = keys.map((k) => `q/${k.slice(2)}`);
  const extras = keysOf(SEED + 1, 10).map((k) => `q/${k.slice(2)}`).filter((t) => !copied.some((c) => c.startsWith(`${t}/`) || t.startsWith(`${c}/`)));
  const [ta, tb] = await twins(extras);
  const neutral = (x, y) => [[x, 'SRC'], [y, 'DST']];

  const awsCp = await runAws(['s3', 'cp', `s3://${a}/p/`, `s3://${ta}/q/`, '--recursive']);
  const cp = await runCli(['cp', `s3://${b}/p/`, `s3://${tb}/q/`, '-v']);
  expect(awsCp.code).toBe(0);
  expect(cp.code).toBe(0);
  expect(lines(cp.stdout, neutral(b, tb))).toEqual(lines(awsCp.stdout, neutral(a, ta)));
  expect(lines(cp.stdout, neutral(b, tb))).toHaveLength(keys.length);

  // sync --delete: the extras drawn from SEED + 1 that cp did not overwrite go.
  const awsSync = await runAws(['s3', 'sync', `s3://${a}/p/`, `s3://${ta}/q/`, '--delete']);
  const sync = await runCli(['sync', `s3://${b}/p/`, `s3://${tb}/q/`, '--delete', '--log', '-']);
  expect(awsSync.code).toBe(0);
  expect(sync.code).toBe(0);
  const syncLines = lines(sync.stdout, neutral(b, tb));
  expect(syncLines).toEqual(lines(awsSync.stdout, neutral(a, ta)));
  expect(syncLines.filter((l) => l.startsWith('delete: ')).length).toBeGreaterThan(0);
  expect((await sequentialList(tb)).map((o) => o.Key)).toEqual((await sequentialList(ta)).map((o) => o.Key));

  // rm, dry run first: the same lines, "(dryrun) " in front, nothing deleted.
  const awsDry = await runAws(['s3', 'rm', `s3://${ta}/q/`, '--recursive', '--dryrun']);
  const dry = await runCli(['rm', `s3://${tb}/q/`, '--dryrun', '-v']);
  expect(lines(dry.stdout, neutral(tb, 'DST'))).toEqual(lines(awsDry.stdout, neutral(ta, 'DST')));
  expect((await sequentialList(tb)).length).toBe(keys.length);
  const awsRm = await runAws(['s3', 'rm', `s3://${ta}/q/`, '--recursive']);
  const rm = await runCli(['rm', `s3://${tb}/q/`, '--log', '-', '--json']);
  expect(awsRm.code).toBe(0);
  expect(rm.code).toBe(0);
  // JSON lines on stdout, one per key; the report (JSON) on stderr.
  const recs = rm.stdout.trim().split('\n').map((l) => JSON.parse(l));
  expect(recs.map((x) => `delete: ${x.target}`.split(tb).join('SRC')).sort()).toEqual(lines(awsRm.stdout, neutral(ta, 'DST')));
  expect(recs.every((x) => x.op === 'delete' && x.status === 'deleted')).toBe(true);
  expect(JSON.parse(rm.stderr.slice(rm.stderr.indexOf('{'))).deleted.objects).toBe(keys.length);
  expect(await sequentialList(tb)).toEqual([]);
});

test('--log FILE writes the lines there and leaves stdout to the report', async () => {
  const keys = keysOf(SEED + 2, 12);
  const [a, b] = await twins(keys);
  const file = require('path').join(require('os').tmpdir(), `s3blitz-log-${process.pid}-${SEED}.txt`);
  const r = await runCli(['cp', `s3://${a}/p/`, `s3://${b}/copy/`, '--log', file]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(new RegExp(`^copied\\s+${keys.length} objects`)); // keysOf leaves out keys that are folders' names too
  const written = require('fs').readFileSync(file, 'utf8').trim().split('\n').sort();
  expect(written).toEqual(keys.map((k) => `copy: s3://${a}/${k} to s3://${b}/copy/${k.slice(2)}`).sort());
  require('fs').rmSync(file);
  const bad = await runCli(['cp', `s3://${a}/p/`, `s3://${b}/copy/`, '--log', '/nonexistent-dir/x.log']);
  expect(bad.code).toBe(2);
  expect(bad.stderr.trim().split('\n')).toEqual(['s3blitz: --log /nonexistent-dir/x.log: ENOENT']);
});

test('presign: a GET URL that works without credentials, as aws s3 presign\'s does; a PUT URL that uploads; limits refused in one line', async () => {
  const bucket = await createBucket();
  const body = crypto.randomBytes(3000);
  await putObjects(bucket, [{ key: 'docs/report 1+1.pdf', body }]);
  const ours = await runCli(['presign', `s3://${bucket}/docs/report 1+1.pdf`, '--expires-in', '15m']);
  const aws = await runAws(['s3', 'presign', `s3://${bucket}/docs/report 1+1.pdf`, '--expires-in', '900']);
  expect(ours.code).toBe(0);
  expect(aws.code).toBe(0);
  // aws-cli v1 signs with SigV2 here; s3blitz with SigV4 (the query form), as S3 wants today.
  expect(ours.stdout).toMatch(/X-Amz-Algorithm=AWS4-HMAC-SHA256&.*X-Amz-Expires=900/);
  for (const url of [ours.stdout.trim(), aws.stdout.trim()]) {
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  }
  // A URL whose signature was tampered with is refused: the signature is checked.
  const tampered = ours.stdout.trim().replace(/X-Amz-Signature=([0-9a-f])/, (m, c) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`);
  expect((await fetch(tampered)).status).toBe(403);

  const put = await runCli(['presign', `s3://${bucket}/inbox/up.bin`, '--method', 'put', '--json']);
  expect(put.code).toBe(0);
  const r = JSON.parse(put.stdout);
  expect(r).toMatchObject({ method: 'PUT', bucket, key: 'inbox/up.bin', expiresIn: 3600 });
  const up = crypto.randomBytes(5000);
  expect((await fetch(r.url, { method: 'PUT', body: up })).status).toBe(200);
  const got = await s3client().send(new GetObjectCommand({ Bucket: bucket, Key: 'inbox/up.bin' }));
  expect(Buffer.from(await got.Body.transformToByteArray()).equals(up)).toBe(true);

  for (const [args, pattern] of [
    [['--expires-in', '8d'], /--expires-in must be between 1 and 604800 seconds/],
    [['--method', 'delete'], /--method must be get or put/],
  ]) {
    const bad = await runCli(['presign', `s3://${bucket}/docs/x`, ...args]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toMatch(pattern);
  }
  const folder = await runCli(['presign', `s3://${bucket}/docs/`]);
  expect(folder.code).toBe(2);
  expect(folder.stderr).toMatch(/names a bucket or a folder/);
});

test(`ls --delimiter / (and --no-recursive) shows one level as aws s3 ls does, at every folder of a generated tree (seed ${SEED})`, async () => {
  // A level wider than a page (1,050 objects beside 20 folders: pages of 1,000 entries split it).
  const wide = [...Array.from({ length: 1050 }, (_, i) => `wide/f${String(i).padStart(4, '0')}`), ...Array.from({ length: 20 }, (_, i) => `wide/f${String(i * 50).padStart(4, '0')}x/in`)];
  const keys = [...keysOf(SEED + 3, 40), 'top.txt', 'p/', 'p-old', ...wide];
  const bucket = await createBucket();
  await putObjects(bucket, keys);
  // The bucket's root, the wide level, paths that end in a name (not a "/"), and six of the
  // tree's folders drawn by the seed (each path costs an aws-cli start, about a second).
  const folders = new Set();
  for (const k of keys) for (let i = k.indexOf('/'); i >= 0; i = k.indexOf('/', i + 1)) folders.add(k.slice(0, i + 1));
  const r = prng(SEED + 4);
  const drawn = [...folders].filter((f) => f.startsWith('p/') && f !== 'p/').sort(() => r.next() - 0.5).slice(0, 6);
  const paths = ['', 'p/', 'wide/', 'p', 'p/d', 'to', ...drawn];
  for (const [i, p] of paths.entries()) {
    const aws = await runAws(['s3', 'ls', `s3://${bucket}/${p}`]);
    const ours = await runCli(['ls', `s3://${bucket}/${p}`, ...(i % 2 ? ['--no-recursive'] : ['--delimiter', '/'])]);
    expect({ path: p, code: ours.code, lines: ours.stdout.split('\n').filter(Boolean) })
      .toEqual({ path: p, code: 0, lines: aws.stdout.split('\n').filter(Boolean) });
  }
  const json = await runCli(['ls', `s3://${bucket}/p/`, '--delimiter', '/', '--json']);
  const recs = json.stdout.trim().split('\n').map((l) => JSON.parse(l));
  const want = new Set(keys.filter((k) => k.startsWith('p/')).map((k) => { const rest = k.slice(2); const i = rest.indexOf('/'); return i < 0 ? k : `p/${rest.slice(0, i + 1)}`; }));
  expect(recs.map((r) => r.Prefix ?? r.Key).sort()).toEqual([...want].sort());
  const refused = await runCli(['ls', `s3://${bucket}/p/`, '--delimiter', '/', '--all-versions']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toMatch(/--all-versions applies to a listing of every key/);
});
