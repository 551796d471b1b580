'use strict';
// sync --delete across shards in two phases, as docs/scale-out.md shows: one
// plan, a dry run per shard, merge --max-delete on the total, then the real run. Each shard
// plans and deletes only target objects inside its own range; together they delete exactly
// the target's extra objects, wherever they sit (before the source's first key, between
// shards, after its last). A probe object that another run wrote for a moment (here one that
// stays) is nobody's extra: each shard tests conditional deletes with a probe of its own, and a
// shard that listed another's once deleted it and counted it against --max-delete.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { createBucket, putObjects, sequentialList, runCli } = require('../helpers/s3env');
const { compareKeys } = require('../../src/keys/order');
const { probeKey } = require('../../src/stores/conditional-probe');

const N = 3;
let src, dst, dir, keys;
const probe = probeKey('k/');
const extras = ['a-first', 'k/0050x', 'k/0150x', 'k/0250x', 'k/0250y/deeper', 'zz-last', 'é-unicode'];

beforeAll(async () => {
  src = await createBucket('shdel-src');
  dst = await createBucket('shdel-dst');
  keys = Array.from({ length: 300 }, (_, i) => `k/${String(i).padStart(4, '0')}`);
  await putObjects(src, keys);
  await putObjects(dst, [...keys, ...extras, probe]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-shdel-'));
}, 300000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const shards = (args) => Promise.all(Array.from({ length: N }, (_, i) => runCli([...args, '--shard', `${i}/${N}`], { env: { XDG_STATE_HOME: dir } })));
const files = (name) => Array.from({ length: N }, (_, i) => path.join(dir, `${name}-${i}.json`));

test('dry run per shard, merge checks the total, the real run deletes exactly the extras', async () => {
  const plan = path.join(dir, 'plan.json');
  expect((await runCli(['plan', `s3://${src}`, '--shards', String(N), '--output', plan, '-q'])).code).toBe(0);

  const dry = await shards(['sync', `s3://${src}`, `s3://${dst}`, '--delete', '--dryrun', '--plan', plan, '--result', path.join(dir, 'dry-%i.json'), '-q']);
  const planned = [];
  for (let i = 0; i < N; i++) {
    expect(dry[i].code).toBe(0);
    const mine = [...dry[i].stdout.matchAll(/^delete\s+\S+ \S+\s+(.*)$/gm)].map((m) => m[1]);
    // A shard plans deletes only inside its own range of the plan.
    const { startAfter, stopAt } = JSON.parse(fs.readFileSync(plan, 'utf8')).ranges[i];
    for (const k of mine) {
      if (startAfter !== null) expect(compareKeys(k, startAfter)).toBeGreaterThan(0);
      if (stopAt !== null) expect(compareKeys(k, stopAt)).toBeLessThanOrEqual(0);
    }
    planned.push(...mine);
  }
  expect(planned.sort(compareKeys)).toEqual([...extras].sort(compareKeys));

  const over = await runCli(['merge', ...files('dry'), '--max-delete', String(extras.length - 1)]);
  expect({ code: over.code, stderr: over.stderr.trim() }).toEqual({ code: 4, stderr: expect.stringMatching(`would delete ${extras.length} objects in all, more than --max-delete ${extras.length - 1}`) });
  const ok = await runCli(['merge', ...files('dry'), '--max-delete', String(extras.length), '--json', '-q']);
  expect(ok.code).toBe(0);
  expect(JSON.parse(ok.stdout)).toMatchObject({ dryrun: true, deleted: { objects: extras.length }, shards: { of: N, present: N } });
  expect((await sequentialList(dst)).length).toBe(keys.length + extras.length + 1); // nothing deleted yet

  const run = await shards(['sync', `s3://${src}`, `s3://${dst}`, '--delete', '--max-delete', String(extras.length), '--plan', plan, '--result', path.join(dir, 'run-%i.json'), '-q']);
  for (const r of run) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
  const merged = await runCli(['merge', ...files('run'), '--max-delete', String(extras.length), '--json', '-q']);
  expect(merged.code).toBe(0);
  expect(JSON.parse(merged.stdout)).toMatchObject({ deleted: { objects: extras.length }, copied: { objects: 0 } });
  expect((await sequentialList(dst)).map((o) => o.Key)).toEqual([...(await sequentialList(src)).map((o) => o.Key), probe].sort(compareKeys));
  // A probe left behind goes when named alone.
  const rm = await runCli(['rm', `s3://${dst}/${probe}`, '--json', '-q']);
  expect({ code: rm.code, deleted: JSON.parse(rm.stdout).deleted }).toEqual({ code: 0, deleted: { objects: 1, bytes: expect.any(Number) } });
  expect((await sequentialList(dst)).map((o) => o.Key)).toEqual((await sequentialList(src)).map((o) => o.Key));
}, 300000);
