'use strict';
// Versioned buckets on MinIO, through the CLI as a user runs it: ls --all-versions against a
// sequential ListObjectVersions walk (each version once, in order, at several concurrencies),
// summarize's figures, --as-of at three moments (ls, cp, compare, sync), cp --all-versions
// (the same history on the target, also after an interruption), cp --version-id, rm
// --all-versions (refused past --max-delete, then empties the bucket), and an unversioned bucket.
const { PutObjectCommand } = require('@aws-sdk/client-s3');
const s3blitz = require('../../src/index');
const { runCli, createBucket, putObjects, s3client, libOptions, uniqueBucket } = require('../helpers/s3env');
const { createVersionedBucket, putVersion, deleteKey, walkVersions } = require('../helpers/versions');
const { adversarialKeys, minioSafe } = require('../helpers/keysets');

const jsonLines = (s) => s.split('\n').filter(Boolean).map((l) => JSON.parse(l));
const brief = (v) => [v.Key, v.VersionId, v.IsLatest, v.DeleteMarker, v.DeleteMarker ? 0 : v.Size, v.DeleteMarker ? null : v.ETag];
// A key's history as a copy must reproduce it: kind, size and ETag of each version, oldest first.
function histories(entries) {
  const h = new Map();
  for (const e of entries) {
    if (!h.has(e.Key)) h.set(e.Key, []);
    h.get(e.Key).unshift(e.DeleteMarker ? ['delete-marker'] : [e.Size, e.ETag]);
  }
  return h;
}
// The rule, written again here: per key the first version in the server's order at or before t.
function expectedAt(entries, t) {
  const seen = new Set(), out = [];
  for (const e of entries) {
    if (seen.has(e.Key) || Date.parse(e.LastModified) > t) continue;
    seen.add(e.Key);
    if (!e.DeleteMarker) out.push([e.Key, e.Size, e.ETag]);
  }
  return out;
}

let scratch;
// Waits until the server's clock has passed t (ms): writes a probe until it is stamped later.
async function serverPast(t) {
  for (;;) {
    await s3client().send(new PutObjectCommand({ Bucket: scratch, Key: 'probe', Body: 'x' }));
    const [v] = await walkVersions(scratch);
    if (Date.parse(v.LastModified) > t) return;
  }
}
const latest = (entries) => Math.max(...entries.map((e) => Date.parse(e.LastModified)));

let src, keys, moments, truth;
const model = []; // what the bucket held after each phase: Map key -> body

beforeAll(async () => {
  scratch = await createBucket(uniqueBucket('scratch'));
  src = await createVersionedBucket(uniqueBucket('versions'));
  keys = [...new Set(['p', 'pa', 'pab', 'dir/x', 'dir/x2', 'dir/xy/z', 'ünï/cödé', '😀/🚀', '\uE000', '\u{10000}', 'sp ace+plus%', ...minioSafe(adversarialKeys(60, 18))])];
  // MinIO keeps no versions of folder objects ("dir/": version null, overwritten in place).
  keys = minioSafe(keys).filter((k) => !k.endsWith('/'));
  const state = new Map();
  const write = async (k, body) => { await putVersion(src, k, body); state.set(k, body); };
  const remove = async (k) => { await deleteKey(src, k); state.delete(k); };
  const inParallel = (list, fn) => Promise.all(list.map(fn));
  // Phase 1: every key once.
  await inParallel(keys, (k, i) => write(k, `one-${i}-${'x'.repeat(i % 7)}`));
  model.push(new Map(state));
  moments = [latest(await walkVersions(src))];
  await serverPast(moments[0]);
  // Phase 2: half overwritten, a third deleted (delete markers), new keys.
  await inParallel(keys.filter((_, i) => i % 2 === 0), (k) => write(k, `two-${k.length}`));
  await inParallel(keys.filter((_, i) => i % 3 === 0), (k) => remove(k));
  await inParallel(['new/1', 'new/2'], (k) => write(k, k));
  model.push(new Map(state));
  moments.push(latest(await walkVersions(src)));
  await serverPast(moments[1]);
  // Phase 3: deleted keys written again, others deleted, and one key of 1003 versions.
  await inParallel(keys.filter((_, i) => i % 3 === 0 && i % 2 === 0), (k) => write(k, `three-${k.length}-zz`));
  await inParallel(keys.filter((_, i) => i % 5 === 1), (k) => remove(k));
  for (let i = 0; i < 1003; i++) await write('many/versions', `v${i}`);
  model.push(new Map(state));
  truth = await walkVersions(src);
  moments.push(latest(truth));
}, 600000);

test('the bucket holds versions, overwrites, delete markers and a key of 1003 versions', () => {
  expect(truth.length).toBeGreaterThan(1003 + keys.length * 2);
  expect(truth.filter((e) => e.DeleteMarker).length).toBeGreaterThan(5);
  expect(truth.filter((e) => e.Key === 'many/versions').length).toBe(1003);
});

test.each([['--list-concurrency', '1'], ['--list-concurrency', '3'], ['--list-concurrency', '100'], ['--sequential']])('ls --all-versions %s equals a sequential ListObjectVersions walk', async (...flag) => {
  const { code, stdout, stderr } = await runCli(['ls', `s3://${src}`, '--all-versions', '--json', ...flag]);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const got = jsonLines(stdout).map(brief);
  expect(got).toEqual(truth.map(brief));
  expect(new Set(got.map((g) => `${g[0]}\0${g[1]}`)).size).toBe(got.length);
});

test('ls --all-versions --unordered: each version once, each key newest first; a prefix', async () => {
  const { code, stdout } = await runCli(['ls', `s3://${src}`, '--all-versions', '--json', '--unordered']);
  expect(code).toBe(0);
  const got = jsonLines(stdout).map(brief);
  expect(got.length).toBe(truth.length);
  const sort = (a) => [...a].sort((x, y) => (`${x[0]}\0${x[1]}` < `${y[0]}\0${y[1]}` ? -1 : 1));
  expect(sort(got)).toEqual(sort(truth.map(brief)));
  expect(histories(jsonLines(stdout))).toEqual(histories(truth));
  const dir = await runCli(['ls', `s3://${src}/dir/`, '--all-versions', '--json']);
  expect(jsonLines(dir.stdout).map(brief)).toEqual(truth.filter((e) => e.Key.startsWith('dir/')).map(brief));
});

test('summarize --all-versions: current and noncurrent versions, delete markers, deleted keys', async () => {
  const { code, stdout } = await runCli(['summarize', `s3://${src}`, '--all-versions', '--json']);
  expect(code).toBe(0);
  const s = JSON.parse(stdout);
  const objects = truth.filter((e) => !e.DeleteMarker);
  const sum = (l) => l.reduce((n, e) => n + e.Size, 0);
  expect(s.objects).toBe(objects.length);
  expect(s.bytes).toBe(sum(objects));
  const v = s.versions;
  expect(v.keys).toBe(new Set(truth.map((e) => e.Key)).size);
  expect(v.current).toEqual({ objects: objects.filter((e) => e.IsLatest).length, bytes: sum(objects.filter((e) => e.IsLatest)) });
  expect(v.noncurrent).toEqual({ objects: objects.filter((e) => !e.IsLatest).length, bytes: sum(objects.filter((e) => !e.IsLatest)) });
  expect(v.deleteMarkers).toBe(truth.filter((e) => e.DeleteMarker).length);
  expect(v.keysDeleted).toBe(truth.filter((e) => e.DeleteMarker && e.IsLatest).length);
  expect(v.noncurrentByAge.reduce((n, b) => n + b.objects, 0)).toBe(v.noncurrent.objects);
  expect(v.keysDeleted).toBe(keys.length + 3 - model[2].size);
  const text = await runCli(['summarize', `s3://${src}`, '--all-versions']);
  expect(text.stdout).toMatch(/noncurrent versions\s+[\d,]+/);
});

describe('--as-of at three moments', () => {
  test.each([0, 1, 2])('ls --as-of moment %i lists the newest version at or before it, nothing where it was deleted', async (m) => {
    const iso = new Date(moments[m]).toISOString();
    const { code, stdout, stderr } = await runCli(['ls', `s3://${src}`, '--as-of', iso, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const got = jsonLines(stdout).map((it) => [it.Key, it.Size, it.ETag]);
    expect(got).toEqual(expectedAt(truth, moments[m]));
    // The phase as written: the same keys, with the bodies written last.
    expect(got.map((g) => g[0]).sort()).toEqual([...model[m].keys()].sort());
    for (const it of jsonLines(stdout)) expect(it.Size).toBe(Buffer.byteLength(model[m].get(it.Key)));
  });

  test('cp, compare and sync --as-of: a point-in-time copy, compared and brought to another moment', async () => {
    const dst = await createBucket(uniqueBucket('asof'));
    const [t0, t1] = moments.map((t) => new Date(t).toISOString());
    const cp = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--as-of', t1]);
    expect(cp.stderr).toBe('');
    expect(cp.code).toBe(0);
    const listed = await s3blitz.ls({ source: `s3://${dst}`, ...libOptions() });
    expect(listed.items.map((it) => [it.Key, it.Size, it.ETag])).toEqual(expectedAt(truth, moments[1]));
    expect((await runCli(['compare', `s3://${src}`, `s3://${dst}`, '--as-of', t1])).code).toBe(0);
    const differs = await runCli(['compare', `s3://${src}`, `s3://${dst}`, '--as-of', t0, '--json']);
    expect(differs.code).toBe(1);
    expect((await runCli(['compare', `s3://${src}`, `s3://${dst}`])).code).toBe(1); // now is not then
    const sy = await runCli(['sync', `s3://${src}`, `s3://${dst}`, '--as-of', t0, '--delete']);
    expect(sy.code).toBe(0);
    expect((await runCli(['compare', `s3://${src}`, `s3://${dst}`, '--as-of', t0])).code).toBe(0);
    const again = await s3blitz.ls({ source: `s3://${dst}`, ...libOptions() });
    expect(again.items.map((it) => [it.Key, it.Size, it.ETag])).toEqual(expectedAt(truth, moments[0]));
    const bad = await runCli(['ls', `s3://${src}`, '--as-of', '2024-06-01T12:00:00']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/time zone/);
  });
});

describe('cp --all-versions', () => {
  test('the target gets the same sequence of versions for every key (sizes and ETags in order)', async () => {
    const dst = await createVersionedBucket(uniqueBucket('allv'));
    const dry = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--all-versions', '--dryrun']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/would replay \d+ delete markers/);
    expect(await walkVersions(dst)).toEqual([]);
    const { code, stdout, stderr } = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--all-versions']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`copied\\s+${truth.filter((e) => !e.DeleteMarker).length.toLocaleString('en-US')} objects`));
    const copied = await walkVersions(dst);
    expect(copied.length).toBe(truth.length);
    expect(histories(copied)).toEqual(histories(truth));
  });

  test('interrupted and resumed: each version copied once, the same history', async () => {
    const dst = await createVersionedBucket(uniqueBucket('resume'));
    const stop = new AbortController();
    let seen = 0;
    const journal = require('path').join(require('os').tmpdir(), `${dst}.jsonl`);
    const first = await s3blitz.copy({
      source: `s3://${src}`, target: `s3://${dst}`, allVersions: true, journal, copyConcurrency: 4, stopSignal: stop.signal, ...libOptions(),
      onObject: () => { if (++seen === 40) stop.abort(); },
    });
    expect(first.interrupted).toBe(true);
    const partial = await walkVersions(dst);
    expect(partial.length).toBeLessThan(truth.length);
    const second = await s3blitz.copy({ source: `s3://${src}`, target: `s3://${dst}`, allVersions: true, journal, ...libOptions() });
    expect(second.ok).toBe(true);
    expect(second.complete).toBe(true);
    const copied = await walkVersions(dst);
    expect(copied.length).toBe(truth.length);
    expect(histories(copied)).toEqual(histories(truth));
  });

  test('cp --version-id copies that one version; a delete marker or a missing id is one line and exit 3', async () => {
    const key = 'many/versions';
    const versions = truth.filter((e) => e.Key === key);
    const old = versions[500];
    const dst = await createBucket(uniqueBucket('one'));
    const { code } = await runCli(['cp', `s3://${src}/${key}`, `s3://${dst}/restored/`, '--version-id', old.VersionId]);
    expect(code).toBe(0);
    const got = (await s3blitz.ls({ source: `s3://${dst}`, ...libOptions() })).items;
    expect(got.map((it) => [it.Key, it.Size, it.ETag])).toEqual([['restored/versions', old.Size, old.ETag]]);
    const marker = truth.find((e) => e.DeleteMarker);
    const m = await runCli(['cp', `s3://${src}/${marker.Key}`, `s3://${dst}/x`, '--version-id', marker.VersionId]);
    expect(m.code).toBe(3);
    expect(m.stderr.trim().split('\n')).toHaveLength(1);
  });
});

test('rm --all-versions: refused past --max-delete, a dry run, then the bucket is empty', async () => {
  const b = await createVersionedBucket(uniqueBucket('rm'));
  const some = minioSafe(adversarialKeys(50, 4)).filter((k) => !k.endsWith('/')); // MinIO: folder objects have no versions
  for (const k of some) { await putVersion(b, k, 'a'); await putVersion(b, k, 'bb'); }
  await Promise.all(some.slice(0, 10).map((k) => deleteKey(b, k)));
  for (let i = 0; i < 1002; i++) await putVersion(b, 'one/key', String(i));
  const before = await walkVersions(b);
  expect(before.length).toBe(some.length * 2 + 10 + 1002);
  const refused = await runCli(['rm', `s3://${b}`, '--all-versions', '--max-delete', '100']);
  expect(refused.code).toBe(4);
  expect(refused.stderr).toMatch(/more than --max-delete 100/);
  expect((await walkVersions(b)).length).toBe(before.length);
  const dry = await runCli(['rm', `s3://${b}`, '--all-versions', '--dryrun']);
  expect(dry.code).toBe(0);
  const lines = dry.stdout.split('\n');
  expect(lines.filter((l) => l.startsWith('delete ')).length).toBe(before.length);
  expect(lines.filter((l) => /^delete\s+marker\s/.test(l)).length).toBe(10);
  expect(lines.filter((l) => /^would delete\s+[\d,]+ versions /.test(l))).toEqual([expect.stringContaining(before.length.toLocaleString('en-US'))]);
  expect((await walkVersions(b)).length).toBe(before.length);
  const rm = await runCli(['rm', `s3://${b}`, '--all-versions', '--json']);
  expect(rm.stderr).toBe('');
  expect(rm.code).toBe(0);
  const r = JSON.parse(rm.stdout);
  expect(r.deleted.objects + r.deleteMarkers.objects).toBe(before.length);
  expect(r.deleteMarkers.objects).toBe(10);
  expect(await walkVersions(b)).toEqual([]);
  // Without --all-versions, rm deletes the current object: a delete marker over its version.
  await putVersion(b, 'kept', 'x');
  expect((await runCli(['rm', `s3://${b}/kept`])).code).toBe(0);
  expect((await walkVersions(b)).map((v) => [v.Key, Boolean(v.DeleteMarker)])).toEqual([['kept', true], ['kept', false]]);
  // rb --force alone cannot remove the versioned bucket and says why; with --all-versions it can.
  const rb = await runCli(['rb', `s3://${b}`, '--force']);
  expect(rb.code).toBe(3);
  expect(rb.stderr).toMatch(/--all-versions/);
  // One line, beside the one that says MinIO ignores the ETags of conditional deletes.
  expect(rb.stderr.trim().split('\n').filter((l) => !/does not honour conditional deletes/.test(l))).toHaveLength(1);
  const gone = await runCli(['rb', `s3://${b}`, '--force', '--all-versions']);
  expect(gone.stderr).toBe('');
  expect(gone.code).toBe(0);
  expect((await runCli(['ls', `s3://${b}`])).code).toBe(3);
});

test('an unversioned bucket: versions are "null", and everything still works', async () => {
  const b = await createBucket(uniqueBucket('plain'));
  await putObjects(b, ['a', 'b/c', 'ü']);
  const ls = await runCli(['ls', `s3://${b}`, '--all-versions', '--json']);
  expect(ls.code).toBe(0);
  expect(jsonLines(ls.stdout).map((v) => [v.Key, v.VersionId, v.IsLatest, v.DeleteMarker])).toEqual([['a', 'null', true, false], ['b/c', 'null', true, false], ['ü', 'null', true, false]]);
  const dst = await createBucket(uniqueBucket('plain-dst'));
  expect((await runCli(['cp', `s3://${b}`, `s3://${dst}`, '--as-of', new Date(Date.now() + 3600e3).toISOString()])).code).toBe(0);
  expect((await runCli(['compare', `s3://${b}`, `s3://${dst}`])).code).toBe(0);
  const s = JSON.parse((await runCli(['summarize', `s3://${b}`, '--all-versions', '--json'])).stdout);
  expect(s.versions.current.objects).toBe(3);
  expect(s.versions.noncurrent.objects).toBe(0);
  expect((await runCli(['rm', `s3://${b}`, '--all-versions'])).code).toBe(0);
  expect(await walkVersions(b)).toEqual([]);
});

test('restore in place: cp --as-of copies old versions back, sync --as-of --delete also removes what came later', async () => {
  const b = await createVersionedBucket(uniqueBucket('inplace'));
  await putVersion(b, 'a', 'a-one');
  await putVersion(b, 'b', 'b-one');
  await putVersion(b, 'same', 'same-one');
  const t1 = latest(await walkVersions(b));
  await serverPast(t1);
  await putVersion(b, 'a', 'a-two!');
  await deleteKey(b, 'b');
  await putVersion(b, 'c', 'c-new');
  const cp = await runCli(['cp', `s3://${b}`, `s3://${b}`, '--as-of', new Date(t1).toISOString(), '--json']);
  expect(cp.stderr).toBe('');
  expect(cp.code).toBe(0);
  const r = JSON.parse(cp.stdout);
  expect(r.copied.objects).toBe(2); // a and b; "same" is current already
  expect(r.alreadyCurrent.objects).toBe(1);
  const now = (await s3blitz.ls({ source: `s3://${b}`, ...libOptions() })).items.map((it) => [it.Key, it.Size]);
  expect(now).toEqual([['a', 5], ['b', 5], ['c', 5], ['same', 8]]);
  const sy = await runCli(['sync', `s3://${b}`, `s3://${b}`, '--as-of', new Date(t1).toISOString(), '--delete']);
  expect(sy.code).toBe(0);
  expect((await s3blitz.ls({ source: `s3://${b}`, ...libOptions() })).items.map((it) => [it.Key, it.Size])).toEqual([['a', 5], ['b', 5], ['same', 8]]);
  // Nothing was lost: every earlier version is still there.
  const history = await walkVersions(b);
  expect(history.filter((e) => e.Key === 'a').map((e) => e.Size)).toEqual([5, 6, 5]);
  expect(history.filter((e) => e.Key === 'c').map((e) => e.DeleteMarker)).toEqual([true, false]);
});
