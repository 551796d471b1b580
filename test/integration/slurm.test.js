'use strict';
// Issue 19 on a real engine: a Slurm job array (a one-node cluster on loopback, installed
// from Debian's packages when missing) runs a sharded sync against MinIO, each task taking
// its shard from SLURM_ARRAY_TASK_ID; merge then combines the four results, and the target
// holds exactly the source's objects. Issue 27: docs/scale-out.md's rerun of the shards merge names
// (sbatch --array=7,31) runs those shards. If Slurm cannot be installed or started, this fails.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { createBucket, putObjects, sequentialList, runCli, connection, REPO_ROOT } = require('../helpers/s3env');
const { adversarialKeys, minioSafe } = require('../helpers/keysets');
const { startSlurm, sbatchWait } = require('../helpers/slurm');

const SHARDS = 4;
let slurm, dir, src, dst, keys;

beforeAll(async () => {
  slurm = await startSlurm();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-slurm-job-'));
  src = await createBucket('slurm-src');
  dst = await createBucket('slurm-dst');
  // A few thousand keys in several folders, with names that trip up encoders and shells.
  keys = [];
  for (const folder of ['logs/2024/01', 'logs/2024/02', 'images/raw', 'images/thumbs', 'data']) {
    for (let i = 0; i < 500; i++) keys.push(`${folder}/part-${String(i).padStart(4, '0')}.bin`);
  }
  keys.push('with space.txt', 'a+b.txt', '100%.csv', 'comma,key', 'say "hi"', "it's", '$HOME and `cmd`', 'é/日本語/한국어.txt',
    'emoji😀/🎉', 'pre', 'pre-x', 'pre/', 'pre/a', 'pre0', 'data/', 'data');
  keys = minioSafe([...keys, ...adversarialKeys(600, 23)]);
  await putObjects(src, keys, { concurrency: 48 });
}, 600000);

afterAll(async () => {
  if (slurm) await slurm.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const sh = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;

// The batch script a user would write: the credentials in its environment, the shard
// index left to Slurm (SLURM_ARRAY_TASK_ID), one result per task for merge.
function batchScript() {
  const c = connection();
  const home = process.env.S3BLITZ_TEST_HOME; // empty ~/.aws: nothing of the machine's leaks in
  return [
    '#!/bin/bash',
    '#SBATCH --job-name=s3blitz-sync',
    `#SBATCH --output=${dir}/slurm-%A_%a.out`,
    'set -euo pipefail',
    `export HOME=${sh(home)} AWS_CONFIG_FILE=${sh(path.join(home, '.aws', 'config'))} AWS_SHARED_CREDENTIALS_FILE=${sh(path.join(home, '.aws', 'credentials'))}`,
    `export AWS_ACCESS_KEY_ID=${sh(c.accessKeyId)} AWS_SECRET_ACCESS_KEY=${sh(c.secretAccessKey)} AWS_REGION=${sh(c.region)}`,
    'export AWS_EC2_METADATA_DISABLED=true',
    `export XDG_STATE_HOME=${sh(path.join(dir, 'state'))}  # each shard's journal`,
    `exec ${sh(process.execPath)} ${sh(path.join(REPO_ROOT, 'bin', 's3blitz.js'))} sync s3://${src} s3://${dst} \\`,
    `  --shards ${SHARDS} --result ${sh(path.join(dir, 'res-%i.json'))} --endpoint-url ${sh(c.endpoint)} --json`,
    '',
  ].join('\n');
}

// The recovery in docs/scale-out.md: a job whose tasks 0 and 2 never ran (only --array=1,3 did), merge
// naming the shards missing, and the rerun of exactly those (--array=0,2). A task's
// SLURM_ARRAY_TASK_ID is its shard index as is, whatever the array's lowest index: were it
// taken less SLURM_ARRAY_TASK_MIN, --array=1,3 would run shards 0 and 2 and the rerun 0 and 2
// again, and merge could never complete.
test('sbatch --array=1,3, merge names shards 0 and 2, sbatch --array=0,2 runs them; merge then says all copied; the target equals the source', async () => {
  const script = path.join(dir, 'sync.sbatch');
  fs.writeFileSync(script, batchScript(), { mode: 0o700 });
  const resultFiles = () => fs.readdirSync(dir).filter((f) => /^res-\d+\.json$/.test(f)).sort();
  const runArray = async (indices) => {
    const job = await sbatchWait(slurm, script, { args: [`--array=${indices.join(',')}`, `--chdir=${dir}`] });
    const outputs = fs.readdirSync(dir).filter((f) => f.startsWith(`slurm-${job.jobId}_`)).sort();
    const logs = outputs.map((f) => `--- ${f}:\n${fs.readFileSync(path.join(dir, f), 'utf8').slice(-3000)}`).join('\n');
    expect({ code: job.code, stderr: job.stderr, logs: job.code === 0 ? '' : `${logs}\n${slurm.logs()}` }).toEqual({ code: 0, stderr: '', logs: '' });
    expect(job.jobId).toMatch(/^\d+$/);
    expect(outputs).toEqual(indices.map((i) => `slurm-${job.jobId}_${i}.out`).sort()); // one task per index ran
    // Each task took the shard its array index names, from Slurm's variable, and said so.
    for (const i of indices) {
      const doc = JSON.parse(fs.readFileSync(path.join(dir, `res-${i}.json`), 'utf8'));
      expect(doc.shard).toMatchObject({ index: i, of: SHARDS, via: expect.stringMatching(/^SLURM_ARRAY_TASK_ID/) });
      const out = fs.readFileSync(path.join(dir, `slurm-${job.jobId}_${i}.out`), 'utf8');
      expect(out).toContain(`shard ${i} of ${SHARDS} (from SLURM_ARRAY_TASK_ID`);
    }
  };

  await runArray([1, 3]);
  expect(resultFiles()).toEqual(['res-1.json', 'res-3.json']);
  const partial = await runCli(['merge', ...resultFiles().map((f) => path.join(dir, f)), '--json']);
  expect({ code: partial.code, stdout: partial.stdout, stderr: partial.stderr.trim() })
    .toEqual({ code: 3, stdout: '', stderr: `s3blitz: merge: shards 0, 2 of ${SHARDS} missing (2 found): run them again` });

  await runArray([0, 2]); // docs/scale-out.md's rerun line, with the shards merge named
  const results = resultFiles();
  expect(results).toEqual(Array.from({ length: SHARDS }, (_, i) => `res-${i}.json`));
  const merged = await runCli(['merge', ...results.map((f) => path.join(dir, f)), '--json']);
  expect({ code: merged.code, stderr: merged.stderr }).toEqual({ code: 0, stderr: expect.stringMatching(new RegExp(`merged ${SHARDS} of ${SHARDS} shards of sync`)) });
  const m = JSON.parse(merged.stdout);
  expect(m.shards).toEqual({ of: SHARDS, present: SHARDS, missing: [] });
  expect(m.copied.objects).toBe(keys.length);
  expect(m.failed ? m.failed.objects : 0).toBe(0);

  const view = (list) => list.map((o) => ({ Key: o.Key, Size: o.Size, ETag: o.ETag }));
  const source = view(await sequentialList(src));
  expect(source).toHaveLength(keys.length);
  expect(view(await sequentialList(dst))).toEqual(source);
}, 900000);
