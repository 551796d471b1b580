'use strict';
// The everyday verbs against MinIO: rm of 10,000 objects by prefix and by wildcard with
// --max-delete, rm --dryrun and of one object, cat / cp - / cp ... - round trips of a 20 MB
// object, head with tags, mb and rb --force.
const crypto = require('crypto');
const { spawn } = require('child_process');
const { PutObjectTaggingCommand, PutObjectCommand, HeadBucketCommand } = require('@aws-sdk/client-s3');
const { createBucket, putObjects, sequentialList, runCli, s3client, testEnv, uniqueBucket, REPO_ROOT } = require('../helpers/s3env');
const path = require('path');
// MinIO ignores the ETags of conditional deletes: every rm says so once, and only that.
const NOT_CONDITIONAL = /^s3blitz: the server does not honour conditional deletes \([^)]*\): keys are deleted without checking that they are unchanged since they were listed \(--require-conditional refuses instead\)\n$/;

const CLI = path.join(REPO_ROOT, 'bin', 's3blitz.js');
const MB = 1000 * 1000;

// runCli with stdout as bytes.
function runBinary(args, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: testEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [], err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.stdin.end(input);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() }));
  });
}

describe('rm of 10,000 objects', () => {
  let bucket, keep;
  const logs = Array.from({ length: 10000 }, (_, i) => `logs/2024/${String(i % 12 + 1).padStart(2, '0')}/part-${String(i).padStart(5, '0')}.gz`);
  beforeAll(async () => {
    bucket = await createBucket();
    // Keys that must survive: neighbours of the prefix, keys that the prefix without "/" would
    // take. (No object named "logs": MinIO would then hide every key under "logs/".)
    keep = ['logs-old.txt', 'logs2/x.gz', 'other/logs/2024/a.gz', 'logs/2024/01/part-00000.txt'];
    await putObjects(bucket, [...logs, ...keep], { concurrency: 64 });
  }, 600000);

  test('over --max-delete: exit 4, one line, nothing deleted', async () => {
    const r = await runCli(['rm', `s3://${bucket}/logs`, '--max-delete', '9999']);
    expect(r.code).toBe(4);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^s3blitz: 10,001 objects would be deleted, more than --max-delete 9999: nothing was deleted/)]);
    expect((await sequentialList(bucket)).length).toBe(10004);
  });

  test('--dryrun prints every key with its size and deletes nothing', async () => {
    const r = await runCli(['rm', `s3://${bucket}/logs/2024/01/`, '--dryrun']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.filter((l) => l.startsWith('delete ')).length).toBe(logs.filter((k) => k.startsWith('logs/2024/01/')).length + 1);
    expect(r.stdout).toMatch(/would delete\s+835 objects/);
    expect((await sequentialList(bucket)).length).toBe(10004);
  });

  test('by wildcard: only the matching keys, in DeleteObjects of 1000 keys', async () => {
    const r = await runCli(['rm', `s3://${bucket}/logs/*/0?/*.gz`, '--max-delete', '9000', '--json']);
    expect(r.stderr).toMatch(NOT_CONDITIONAL);
    expect(r.code).toBe(0);
    const res = JSON.parse(r.stdout);
    const matched = logs.filter((k) => /^logs\/.*\/0.\/.*\.gz$/.test(k));
    expect(res.deleted.objects).toBe(matched.length);
    // The batches, and the conditional-delete probe's three (MinIO reports its missing key
    // deleted, so an object of the probe's own decides: a wrong-ETag delete, then its removal).
    expect(res.stats.requests.DELETE).toBe(Math.ceil(matched.length / 1000) + 3);
    const left = (await sequentialList(bucket)).map((o) => o.Key).sort();
    expect(left).toEqual([...logs.filter((k) => !matched.includes(k)), ...keep].sort());
  });

  test('by folder: every key under logs/ and nothing else; a second rm finds nothing', async () => {
    const r = await runCli(['rm', `s3://${bucket}/logs/`, '--max-delete', '10000']);
    expect(r.stderr).toMatch(NOT_CONDITIONAL);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/deleted\s+2,500 objects/); // months 10 to 12, and the .txt
    const left = (await sequentialList(bucket)).map((o) => o.Key).sort();
    expect(left).toEqual([...keep].filter((k) => !k.startsWith('logs/')).sort());
    const again = await runCli(['rm', `s3://${bucket}/logs/`]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/deleted\s+0 objects/);
  });

  test('one object by name, and only that one', async () => {
    const r = await runCli(['rm', `s3://${bucket}/logs-old.txt`]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/deleted\s+1 object /);
    expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(['logs2/x.gz', 'other/logs/2024/a.gz']);
  });

  test('a wildcard that matches nothing says so and exits 1', async () => {
    const r = await runCli(['rm', `s3://${bucket}/nothing/*`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/matches no object/);
  });
});

describe('a 20 MB object through stdin and stdout', () => {
  let bucket;
  const data = crypto.randomBytes(20 * MB);
  const sha = (b) => crypto.createHash('sha256').update(b).digest('hex');
  beforeAll(async () => { bucket = await createBucket(); });

  test('cp - s3://b/k uploads stdin in parts; cp s3://b/k - and cat give the same bytes; --range a slice', async () => {
    const up = await runBinary(['cp', '-', `s3://${bucket}/dir/stdin.bin`, '--json'], data);
    expect(up.stderr).toBe('');
    expect(up.code).toBe(0);
    const res = JSON.parse(up.stdout.toString());
    expect(res).toMatchObject({ bytes: data.length, parts: 3 }); // 8 MiB parts
    const listed = await sequentialList(bucket);
    expect(listed.map((o) => [o.Key, o.Size])).toEqual([['dir/stdin.bin', data.length]]);
    expect(listed[0].ETag).toMatch(/-3"$/);
    const down = await runBinary(['cp', `s3://${bucket}/dir/stdin.bin`, '-']);
    expect(down.code).toBe(0);
    expect(sha(down.stdout)).toBe(sha(data));
    const cat = await runBinary(['cat', `s3://${bucket}/dir/stdin.bin`]);
    expect(sha(cat.stdout)).toBe(sha(data));
    const range = await runBinary(['cat', `s3://${bucket}/dir/stdin.bin`, '--range', '1000-1999']);
    expect(range.stdout.equals(data.subarray(1000, 2000))).toBe(true);
    const tail = await runBinary(['cat', `s3://${bucket}/dir/stdin.bin`, '--range', '-10']);
    expect(tail.stdout.equals(data.subarray(data.length - 10))).toBe(true);
  });

  test('a short stdin is one PutObject; an empty one an empty object', async () => {
    const small = await runBinary(['cp', '-', `s3://${bucket}/small.txt`, '--json'], Buffer.from('hello\n'));
    expect(JSON.parse(small.stdout.toString())).toMatchObject({ bytes: 6, parts: 0 });
    const empty = await runBinary(['cp', '-', `s3://${bucket}/empty`, '--json'], Buffer.alloc(0));
    expect(JSON.parse(empty.stdout.toString())).toMatchObject({ bytes: 0, parts: 0 });
    expect((await runBinary(['cat', `s3://${bucket}/small.txt`])).stdout.toString()).toBe('hello\n');
    const head = await runCli(['head', `s3://${bucket}/small.txt`]);
    expect(JSON.parse(head.stdout)).toMatchObject({ Key: 'small.txt', ContentLength: 6, ContentType: 'text/plain' });
  });

  test('cat of a missing object: one line, exit 3; of a folder: exit 2', async () => {
    const r = await runCli(['cat', `s3://${bucket}/nope`]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 3, stderr: `s3blitz: s3://${bucket}/nope: no such object\n` });
    const f = await runCli(['cat', `s3://${bucket}/dir/`]);
    expect(f.code).toBe(2);
  });

  test('head --tags: metadata, content headers and tags as JSON', async () => {
    await s3client().send(new PutObjectCommand({ Bucket: bucket, Key: 'meta.json', Body: '{}', ContentType: 'application/json', CacheControl: 'max-age=60', Metadata: { team: 'data' } }));
    await s3client().send(new PutObjectTaggingCommand({ Bucket: bucket, Key: 'meta.json', Tagging: { TagSet: [{ Key: 'env', Value: 'test' }] } }));
    const r = await runCli(['head', `s3://${bucket}/meta.json`, '--tags']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ Bucket: bucket, Key: 'meta.json', ContentLength: 2, ContentType: 'application/json', CacheControl: 'max-age=60', Metadata: { team: 'data' }, Tags: { env: 'test' } });
  });
});

describe('mb and rb', () => {
  test('mb makes a bucket; rb refuses a bucket with objects; rb --force --max-delete refuses past the limit; rb --force empties and removes', async () => {
    const name = uniqueBucket('mb');
    const mb = await runCli(['mb', `s3://${name}`]);
    expect(mb.code).toBe(0);
    await s3client().send(new HeadBucketCommand({ Bucket: name }));
    const again = await runCli(['mb', `s3://${name}`]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/already exists/);
    await putObjects(name, Array.from({ length: 1500 }, (_, i) => `k/${i}`));
    const plain = await runCli(['rb', `s3://${name}`]);
    expect(plain.code).toBe(3);
    expect(plain.stderr).toMatch(/is not empty: rb --force/);
    const limited = await runCli(['rb', `s3://${name}`, '--force', '--max-delete', '1000']);
    expect(limited.code).toBe(4);
    expect((await sequentialList(name)).length).toBe(1500);
    const dry = await runCli(['rb', `s3://${name}`, '--force', '--dryrun']);
    expect(dry.code).toBe(0);
    expect((await sequentialList(name)).length).toBe(1500);
    const forced = await runCli(['rb', `s3://${name}`, '--force']);
    expect(forced.stderr).toMatch(NOT_CONDITIONAL);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/deleted\s+1,500 objects/);
    expect(forced.stdout).toMatch(new RegExp(`remove_bucket: ${name}`));
    await expect(s3client().send(new HeadBucketCommand({ Bucket: name }))).rejects.toMatchObject({ $metadata: { httpStatusCode: 404 } });
  });
});
