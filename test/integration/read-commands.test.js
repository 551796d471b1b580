'use strict';
// summarize, each, map, list-buckets, --api-example, and bad input, through the CLI.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { createBucket, putObjects, runCli, connection } = require('../helpers/s3env');

let bucket;
const sizes = { 'a/x.txt': 10, 'a/y.txt': 20, 'b/z.gz': 3000, 'c': 0, 'b/deep/w.GZ': 70000 };

beforeAll(async () => {
  bucket = await createBucket();
  await putObjects(bucket, Object.entries(sizes).map(([key, n]) => ({ key, body: Buffer.alloc(n, 1) })));
});

test('summarize --json counts objects, bytes, classes, folders, extensions', async () => {
  const { code, stdout, stderr } = await runCli(['summarize', `s3://${bucket}`, '--json', '--summarize-folders']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  const s = JSON.parse(stdout);
  expect(s.objects).toBe(5);
  expect(s.bytes).toBe(73030);
  expect([s.minSize, s.maxSize]).toEqual([0, 70000]);
  expect(s.storageClasses).toEqual([{ name: 'STANDARD', objects: 5, bytes: 73030 }]);
  expect(s.folders).toEqual(expect.arrayContaining([{ name: 'b/', objects: 2, bytes: 73000 }, { name: 'a/', objects: 2, bytes: 30 }, { name: '(root)', objects: 1, bytes: 0 }]));
  expect(s.extensions).toEqual(expect.arrayContaining([{ name: 'gz', objects: 2, bytes: 73000 }, { name: 'txt', objects: 2, bytes: 30 }]));
  expect(s.histogram.reduce((n, h) => n + h.objects, 0)).toBe(5);
  expect(s.stats.listRequests).toBeGreaterThanOrEqual(1);
  expect(s.oldest.key).toBeDefined();
});

test('summarize prints a readable report', async () => {
  const { code, stdout } = await runCli(['summarize', `s3://${bucket}/b/`]);
  expect(code).toBe(0);
  expect(stdout).toMatch(/objects\s+2/);
  expect(stdout).toMatch(/68\.\d KiB/);
});

test('summarize of a local folder needs no credentials', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-local-'));
  fs.mkdirSync(path.join(dir, 'sub'));
  fs.writeFileSync(path.join(dir, 'sub', 'f.bin'), Buffer.alloc(1234));
  fs.writeFileSync(path.join(dir, 'sub-f'), 'x');
  const { code, stdout, stderr } = await runCli(['summarize', dir, '--json'], { env: { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined, AWS_ENDPOINT_URL: undefined } });
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(JSON.parse(stdout)).toEqual(expect.objectContaining({ objects: 2, bytes: 1235 }));
  const ls = await runCli(['ls', dir]);
  expect(ls.stdout).toBe('sub-f\nsub/f.bin\n'); // '-' (0x2D) sorts before '/' (0x2F)
  fs.rmSync(dir, { recursive: true, force: true });
});

test('map with --reduce, --finally and --default', async () => {
  const a = await runCli(['map', `s3://${bucket}`, '--map', 'js:({Size}) => Size', '--reduce', 'js:(a, b) => a + b']);
  expect(a.code).toBe(0);
  expect(JSON.parse(a.stdout)).toBe(73030);
  const b = await runCli(['map', `s3://${bucket}`, '--prefix', 'nothing/', '--map', 'js:({Size}) => Size', '--reduce', 'js:(a, b) => a + b', '--default', '0']);
  expect(JSON.parse(b.stdout)).toBe(0);
  const c = await runCli(['map', `s3://${bucket}`, '--map', 'js:({Key}) => Key', '--reduce', 'js:(a, b) => [].concat(a, b)', '--finally', 'js:(keys) => keys.sort().join(",")']);
  expect(JSON.parse(c.stdout)).toBe('a/x.txt,a/y.txt,b/deep/w.GZ,b/z.gz,c');
  const d = await runCli(['map', `s3://${bucket}/a/`, '--map', 'js:({Key, Size}) => ({Key, Size})']);
  expect(d.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual([{ Key: 'a/x.txt', Size: 10 }, { Key: 'a/y.txt', Size: 20 }]);
});

test('each calls --map per item and --map-list per page', async () => {
  const a = await runCli(['each', `s3://${bucket}`, '--map', 'js:({Key, Size}) => console.log(Key, Size)']);
  expect(a.code).toBe(0);
  expect(a.stdout.trim().split('\n').sort()).toEqual(Object.entries(sizes).map(([k, n]) => `${k} ${n}`).sort());
  const b = await runCli(['each', `s3://${bucket}`, '--map-list', 'js:(items) => console.log(items.length)']);
  expect(b.stdout.trim().split('\n').map(Number).reduce((x, y) => x + y, 0)).toBe(5);
});

test('ls --filter and --pattern', async () => {
  const a = await runCli(['ls', `s3://${bucket}`, '--filter', 'js:({Size}) => Size >= 3000']);
  expect(a.stdout).toBe('b/deep/w.GZ\nb/z.gz\n');
  const b = await runCli(['ls', `s3://${bucket}`, '--pattern', 'js:/\\.gz$/i']);
  expect(b.stdout).toBe('b/deep/w.GZ\nb/z.gz\n');
  const c = await runCli(['ls', `s3://${bucket}`, '--pattern', '.txt', '--long']);
  expect(c.stdout.trim().split('\n')).toEqual([expect.stringMatching(/Z\s+10\s+a\/x\.txt$/), expect.stringMatching(/Z\s+20\s+a\/y\.txt$/)]);
});

test('list-buckets shows the bucket', async () => {
  const { code, stdout } = await runCli(['list-buckets', '--json']);
  expect(code).toBe(0);
  expect(stdout.trim().split('\n').map((l) => JSON.parse(l).Name)).toContain(bucket);
});

test('--api-example prints the library call and does not run', async () => {
  const { code, stdout } = await runCli(['summarize', 's3://no-such-bucket-here/x', '--summarize-folders', '--api-example']);
  expect(code).toBe(0);
  expect(stdout).toMatch(/require\('s3blitz'\)/);
  expect(stdout).toMatch(/s3blitz\.summarize\(\{/);
  expect(stdout).toMatch(/summarizeFolders: true/);
});

describe('bad input: one line on stderr, the documented exit code, no stack trace', () => {
  const closedPort = 'http://127.0.0.1:9';
  const cases = [
    ['missing bucket', ['ls', 's3://s3blitz-no-such-bucket'], 3, /does not exist/],
    ['wrong secret', ['ls', 'BUCKET'], 3, /secret key does not match/, { AWS_SECRET_ACCESS_KEY: 'wrong-secret-key-123' }],
    ['unknown access key', ['ls', 'BUCKET'], 3, /access key is not recognised/, { AWS_ACCESS_KEY_ID: 'NOSUCHKEY' }],
    ['no credentials', ['ls', 'BUCKET'], 3, /no AWS credentials/, { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined }],
    ['unreachable endpoint', ['ls', 'BUCKET', '--endpoint-url', closedPort], 3, /cannot reach/],
    ['invalid s3 URL', ['ls', 's3://'], 2, /no bucket name/],
    ['bad scheme', ['ls', 's3:/x'], 2, /invalid S3 URL/],
    ['js that does not parse', ['ls', 'BUCKET', '--filter', 'js:(x => '], 2, /cannot parse/],
    ['js that is not a function', ['ls', 'BUCKET', '--filter', 'js:42'], 2, /not a function/],
    ['negative concurrency', ['ls', 'BUCKET', '--list-concurrency', '-5'], 2, /--list-concurrency must be/],
    ['non-numeric concurrency', ['ls', 'BUCKET', '--list-concurrency', 'many'], 2, /--list-concurrency must be/],
    ['start-after after stop-at', ['ls', 'BUCKET', '--start-after', 'm', '--stop-at', 'c'], 2, /range is empty/],
    ['unknown option', ['ls', 'BUCKET', '--no-such-option'], 2, /unknown option/],
    // Not an s3:// URL and not on disk: a mistyped path is a usage error (issue 16).
    ['local folder missing', ['summarize', '/nonexistent/folder/xyz'], 2, /is neither an s3:\/\/ URL nor a local file or folder/],
  ];
  test.each(cases)('%s', async (name, args, exitCode, message, env = {}) => {
    const { code, stderr, stdout } = await runCli(args.map((a) => (a === 'BUCKET' ? `s3://${bucket}` : a)), { env });
    expect({ name, code }).toEqual({ name, code: exitCode });
    expect(stderr).toMatch(message);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe('');
  });

  test('--debug adds the stack trace', async () => {
    const { code, stderr } = await runCli(['ls', 's3://s3blitz-no-such-bucket', '--debug']);
    expect(code).toBe(3);
    expect(stderr).toMatch(/\n\s+at /);
  });
});

test('help has examples for every command', async () => {
  for (const c of ['ls', 'summarize', 'each', 'map', 'list-buckets']) {
    const { code, stdout } = await runCli([c, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Examples:/);
  }
  expect(connection().endpoint).toMatch(/^http:\/\/127\.0\.0\.1:/);
});
