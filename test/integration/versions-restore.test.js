'use strict';
// Point-in-time restores to disk and stdout (issue 27): on a versioned MinIO bucket whose
// keys and bodies come from a seeded PRNG (the seed is printed; S3BLITZ_TEST_SEED replays
// one), versions are written, a moment T taken, then keys overwritten (some with bodies of
// the same size), deleted, created and re-created. cp and sync --as-of T to a folder, cp of
// one key to a file and to stdout (--as-of T, --version-id), and cat --version-id must each
// give the bytes of the version at T (or the version named), checked by MD5 against GetObject
// with VersionId through the SDK: keys deleted since T are back with their old bytes, keys
// created after T are absent, and the counts of copied objects and bytes are the reference's.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { GetObjectCommand } = require('@aws-sdk/client-s3');
const { runCli, createBucket, uniqueBucket, s3client, putMultipart } = require('../helpers/s3env');
const { createVersionedBucket, putVersion, deleteKey, walkVersions, latest, serverPast, versionsAt } = require('../helpers/versions');
const { prng } = require('../helpers/keysets');

const SEED = Number(process.env.S3BLITZ_TEST_SEED) || (Date.now() % 2147483647);
console.log(`versions-restore seed: ${SEED} (S3BLITZ_TEST_SEED=${SEED} replays it)`);
const r = prng(SEED);

const md5 = (buf) => crypto.createHash('md5').update(buf).digest('hex');
const MiB = 1024 * 1024;
const randomBytes = (n) => r.bytes(n);
const FOLDERS = ['', 'a/', 'a/b/', 'data/2024/06/', 'ünï/', '😀 x/'];
const SIZES = [() => 0, () => 1, () => 1 + r.int(100), () => 1 + r.int(5000), () => 20000 + r.int(20000)];
const randomKey = (i) => `${r.pick(FOLDERS)}k${i}-${Math.floor(r.next() * 2 ** 40).toString(36)}.bin`;
const randomBody = () => randomBytes(r.pick(SIZES)());
// A body of the same size and other bytes (a change that sizes alone cannot see).
const sameSize = (old) => { const b = randomBytes(Math.max(old.length, 1)); if (b.equals(old)) b[0] ^= 1; return b; };

const BIG = 'big/multipart.bin'; // 11 MiB in three parts: downloaded as ranged GETs below
const big = () => [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(MiB)];
// Downloads above 1 MiB go as ranged GETs of 5 MiB: the big object takes three.
const RANGED = ['--large-copy-threshold', '1MiB', '--part-size', '5MiB'];

let bucket, T, iso, ref, refByKey, picks, today;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-restore-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

// The SDK's GetObject of one version: the reference bytes.
async function getVersion(key, versionId) {
  const out = await s3client().send(new GetObjectCommand({ Bucket: bucket, Key: key, VersionId: versionId }));
  return Buffer.from(await out.Body.transformToByteArray());
}

// Every file under dir: relative path ("/"-separated) -> MD5.
function folderMd5s(dir) {
  const out = {};
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p).split(path.sep).join('/')] = md5(fs.readFileSync(p));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

const refMd5s = () => Object.fromEntries(ref.map((v) => [v.Key, v.md5]));
const refTotals = () => ({ objects: ref.length, bytes: ref.reduce((n, v) => n + v.Size, 0) });

beforeAll(async () => {
  const scratch = await createBucket(uniqueBucket('restore-clock'));
  bucket = await createVersionedBucket(uniqueBucket('restore'));
  const live = new Map(); // key -> body, as the test wrote it
  const write = async (k, body) => { await putVersion(bucket, k, body); live.set(k, body); };
  const remove = async (k) => { await deleteKey(bucket, k); live.delete(k); };
  const keys = Array.from({ length: 36 }, (_, i) => randomKey(i));
  // Before T: every key once, some twice (the version at T is then not the first), a few
  // deleted (a delete marker is newest at T), the big one in parts.
  for (const k of keys) await write(k, randomBody());
  const twice = keys.filter((_, i) => i % 6 === 1);
  for (const k of twice) await write(k, randomBody());
  const deadAtT = keys.filter((_, i) => i % 9 === 4);
  for (const k of deadAtT) await remove(k);
  const bigV1 = big();
  await putMultipart(bucket, BIG, bigV1);
  live.set(BIG, Buffer.concat(bigV1));
  const atT = new Map(live);
  T = latest(await walkVersions(bucket));
  iso = new Date(T).toISOString();
  await serverPast(scratch, T);
  // After T: overwrites (half of them the same size), deletes, new keys, dead keys back.
  const alive = keys.filter((k) => live.has(k));
  const overwritten = alive.filter(() => r.next() < 0.35);
  for (const k of overwritten) await write(k, r.next() < 0.5 ? sameSize(live.get(k)) : randomBody());
  const deleted = alive.filter((k) => !overwritten.includes(k) && r.next() < 0.3);
  for (const k of deleted) await remove(k);
  const created = Array.from({ length: 5 }, (_, i) => randomKey(100 + i));
  for (const k of created) await write(k, randomBody());
  for (const k of deadAtT.slice(0, 2)) await write(k, randomBody());
  await putMultipart(bucket, BIG, big());
  // The reference: the versions at T by the server's own listing, their bytes by GetObject.
  const walk = await walkVersions(bucket);
  ref = [];
  for (const v of versionsAt(walk, T)) {
    const body = await getVersion(v.Key, v.VersionId);
    ref.push({ Key: v.Key, VersionId: v.VersionId, Size: body.length, md5: md5(body) });
  }
  refByKey = new Map(ref.map((v) => [v.Key, v]));
  // Today's objects, by GetObject of each key's latest version.
  today = {};
  for (const v of walk) if (v.IsLatest && !v.DeleteMarker) today[v.Key] = md5(await getVersion(v.Key));
  // The reference is what was written before T (a check of the test itself).
  expect(Object.fromEntries([...atT].map(([k, b]) => [k, md5(b)]))).toEqual(refMd5s());
  const versionsOf = (k) => walk.filter((e) => e.Key === k);
  picks = {
    changed: overwritten.find((k) => live.get(k).length === atT.get(k).length && live.get(k).length > 0) || overwritten[0],
    deleted: deleted[0],
    created: created[0],
    deadAtT: deadAtT[0], // deleted before T and written again after
    oldest: (k) => versionsOf(k)[versionsOf(k).length - 1],
  };
  expect(overwritten.length).toBeGreaterThan(0);
  expect(deleted.length).toBeGreaterThan(0);
}, 300000);

test('the history is as built: changed, deleted, created and re-created keys around T', async () => {
  expect(refByKey.has(picks.changed)).toBe(true);
  expect(refByKey.has(picks.deleted)).toBe(true);
  expect(refByKey.has(picks.created)).toBe(false);
  expect(refByKey.has(picks.deadAtT)).toBe(false);
  expect(refByKey.get(BIG).Size).toBe(11 * MiB);
});

test('cp --as-of T to a folder: the bytes of T, deleted keys restored, later keys absent, counts of T', async () => {
  const dir = path.join(tmp, 'cp');
  const { code, stdout, stderr } = await runCli(['cp', `s3://${bucket}`, dir, '--as-of', iso, '--json', ...RANGED]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const out = JSON.parse(stdout);
  expect(folderMd5s(dir)).toEqual(refMd5s());
  expect(out.copied).toEqual(refTotals());
  expect(out.vanished.objects + out.changed.objects + out.failed.objects).toBe(0);
});

test('sync --as-of T to an empty folder, then again (nothing to do)', async () => {
  const dir = path.join(tmp, 'sync');
  const first = await runCli(['sync', `s3://${bucket}`, dir, '--as-of', iso, '--json', ...RANGED]);
  expect(first.stderr).toBe('');
  expect(first.code).toBe(0);
  expect(folderMd5s(dir)).toEqual(refMd5s());
  expect(JSON.parse(first.stdout).copied).toEqual(refTotals());
  const again = await runCli(['sync', `s3://${bucket}`, dir, '--as-of', iso, '--json']);
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout).copied.objects).toBe(0);
});

test('sync --as-of T --checksum=download --delete onto a folder of today\'s objects brings it back to T', async () => {
  const dir = path.join(tmp, 'today');
  const now = await runCli(['cp', `s3://${bucket}`, dir]);
  expect(now.code).toBe(0);
  expect(folderMd5s(dir)).toEqual(today);
  const { code, stdout, stderr } = await runCli(['sync', `s3://${bucket}`, dir, '--as-of', iso, '--checksum=download', '--delete', '--json', ...RANGED]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(folderMd5s(dir)).toEqual(refMd5s());
  // Copied: every key of T whose bytes today are others (or none); deleted: keys born after T.
  const differing = ref.filter((v) => today[v.Key] !== v.md5);
  const out = JSON.parse(stdout);
  expect(out.copied).toEqual({ objects: differing.length, bytes: differing.reduce((n, v) => n + v.Size, 0) });
  expect(out.deleted.objects).toBe(Object.keys(today).filter((k) => !refByKey.has(k)).length);
});

describe('one key', () => {
  test('cp s3://b/k - --as-of T: the bytes of T, for a key changed and a key deleted since', async () => {
    for (const k of [picks.changed, picks.deleted, BIG]) {
      const { code, stdoutBytes, stderr } = await runCli(['cp', `s3://${bucket}/${k}`, '-', '--as-of', iso]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(md5(stdoutBytes)).toBe(refByKey.get(k).md5);
    }
  });

  test('cp s3://b/k - --as-of T for a key created after T, or deleted at T: exit 3, one line', async () => {
    for (const k of [picks.created, picks.deadAtT]) {
      const { code, stdout, stderr } = await runCli(['cp', `s3://${bucket}/${k}`, '-', '--as-of', iso]);
      expect(code).toBe(3);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/no such object at/);
    }
  });

  test('cp s3://b/k - --version-id V, cat --version-id V, cp s3://b/k ./file --version-id V: that version\'s bytes', async () => {
    for (const k of [picks.changed, BIG, picks.deleted]) {
      const v = picks.oldest(k);
      const want = md5(await getVersion(k, v.VersionId));
      const out = await runCli(['cp', `s3://${bucket}/${k}`, '-', '--version-id', v.VersionId]);
      expect(out.stderr).toBe('');
      expect(out.code).toBe(0);
      expect(md5(out.stdoutBytes)).toBe(want);
      const cat = await runCli(['cat', `s3://${bucket}/${k}`, '--version-id', v.VersionId]);
      expect(cat.stderr).toBe('');
      expect(cat.code).toBe(0);
      expect(md5(cat.stdoutBytes)).toBe(want);
      const file = path.join(tmp, `one-${md5(k)}.bin`);
      const cp = await runCli(['cp', `s3://${bucket}/${k}`, file, '--version-id', v.VersionId, '--json', ...RANGED]);
      expect(cp.stderr).toBe('');
      expect(cp.code).toBe(0);
      expect(md5(fs.readFileSync(file))).toBe(want);
      expect(JSON.parse(cp.stdout).copied).toEqual({ objects: 1, bytes: v.Size });
    }
  });

  test('head --version-id V and head --as-of T: that version\'s size, ETag and version id', async () => {
    const { HeadObjectCommand } = require('@aws-sdk/client-s3');
    for (const [k, flags, versionId] of [[picks.changed, ['--version-id', picks.oldest(picks.changed).VersionId], picks.oldest(picks.changed).VersionId],
      [picks.deleted, ['--as-of', iso], refByKey.get(picks.deleted).VersionId]]) {
      const want = await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: k, VersionId: versionId }));
      const { code, stdout, stderr } = await runCli(['head', `s3://${bucket}/${k}`, ...flags]);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const got = JSON.parse(stdout);
      expect([got.ContentLength, got.ETag, got.VersionId]).toEqual([want.ContentLength, want.ETag, versionId]);
    }
  });

  test('cp s3://b/k ./file --as-of T: the bytes of T, also for a key deleted since', async () => {
    for (const k of [picks.changed, picks.deleted]) {
      const file = path.join(tmp, `asof-${md5(k)}.bin`);
      const { code, stdout, stderr } = await runCli(['cp', `s3://${bucket}/${k}`, file, '--as-of', iso, '--json']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(md5(fs.readFileSync(file))).toBe(refByKey.get(k).md5);
      expect(JSON.parse(stdout).copied).toEqual({ objects: 1, bytes: refByKey.get(k).Size });
    }
  });
});
