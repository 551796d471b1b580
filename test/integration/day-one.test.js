'use strict';
// What an aws-cli, s5cmd or rclone user reaches for on day one, against MinIO: a folder sync
// that sees a same-size edit, the journal rules (no resume after a refusal, not after
// --resume-max-age, a lock against a second run), the failure cap, a public bucket with
// --no-sign-request, a profile with endpoint_url, wildcards and --include / --exclude
// against the same selection made with --pattern.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');
const { PutBucketPolicyCommand } = require('@aws-sdk/client-s3');
const { createBucket, putObjects, sequentialList, runCli, connection, s3client } = require('../helpers/s3env');

let tmp;
beforeAll(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-day-one-')); });
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const lines = (s) => s.split('\n').filter(Boolean);

describe('a folder synced to a bucket', () => {
  test('an in-place edit of the same size is uploaded; compare says older, then how many pairs were judged by size', async () => {
    const bucket = await createBucket();
    const dir = path.join(tmp, 'data');
    fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'a.txt'), 'hello');
    fs.writeFileSync(path.join(dir, 'sub', 'b.txt'), 'world');
    const first = await runCli(['sync', dir, `s3://${bucket}/backup/`]);
    expect(first.code).toBe(0);
    expect((await sequentialList(bucket)).map((o) => o.Key)).toEqual(['backup/a.txt', 'backup/sub/b.txt']);
    const cmp = await runCli(['compare', dir, `s3://${bucket}/backup/`]);
    expect(cmp.code).toBe(0);
    expect(cmp.stdout).not.toMatch(/^identical$/m);
    expect(cmp.stdout).toMatch(/no differences found; 2 of 2 pairs were judged by size and modification time only \(--checksum checks them by stored checksums, --checksum=download by reading\)/);
    const json = JSON.parse((await runCli(['compare', dir, `s3://${bucket}/backup/`, '--json'])).stdout);
    expect(json).toMatchObject({ identical: true, verified: false, judgedBySize: 2 });
    // The edit: same size, modified after the upload (an explicit time: no waiting on the clock).
    const uploaded = (await sequentialList(bucket))[0].LastModified;
    fs.writeFileSync(path.join(dir, 'a.txt'), 'HELLO');
    const later = new Date(+uploaded + 60000);
    fs.utimesSync(path.join(dir, 'a.txt'), later, later);
    const seen = await runCli(['compare', dir, `s3://${bucket}/backup/`, '--show', 'older']);
    expect({ code: seen.code, stdout: seen.stdout }).toEqual({ code: 1, stdout: 'older\ta.txt\n' });
    const sync = await runCli(['sync', dir, `s3://${bucket}/backup/`, '--json']);
    expect(sync.code).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ copied: { objects: 1, bytes: 5 }, classes: { older: { objects: 1 }, same: { objects: 1 } } });
    const body = await (await runCli(['cat', `s3://${bucket}/backup/a.txt`])).stdout;
    expect(body).toBe('HELLO');
    // --checksum checks the bytes (each file against its object's MD5 ETag): now every pair is checked, and the verdict may say identical.
    const checked = await runCli(['compare', dir, `s3://${bucket}/backup/`, '--checksum']);
    expect(checked.code).toBe(0);
    expect(checked.stdout).toMatch(/^identical$/m);
    // A download takes its objects' times, so the folder is not older than the bucket.
    const down = path.join(tmp, 'down');
    expect((await runCli(['sync', `s3://${bucket}/backup`, down])).code).toBe(0);
    const again = await runCli(['sync', `s3://${bucket}/backup`, down, '--json']);
    expect(JSON.parse(again.stdout).copied.objects).toBe(0);
    // A same-size edit of the downloaded file with an older time than the object: downloaded again.
    fs.writeFileSync(path.join(down, 'a.txt'), 'xxxxx');
    fs.utimesSync(path.join(down, 'a.txt'), new Date(+uploaded - 3600e3), new Date(+uploaded - 3600e3));
    const fixed = await runCli(['sync', `s3://${bucket}/backup`, down, '--json']);
    expect(JSON.parse(fixed.stdout).copied.objects).toBe(1);
    expect(fs.readFileSync(path.join(down, 'a.txt'), 'utf8')).toBe('HELLO');
  });
});

describe('journals', () => {
  const state = () => fs.mkdtempSync(path.join(tmp, 'state-'));

  test('after a refusal (exit 4) the same command starts afresh the next time, and copies what is new', async () => {
    const src = await createBucket(), dst = await createBucket();
    await putObjects(src, ['b/1', 'b/2', 'c/3']);
    await putObjects(dst, ['x/extra-1', 'x/extra-2']);
    const env = { XDG_STATE_HOME: state() };
    const args = ['sync', `s3://${src}`, `s3://${dst}`, '--delete', '--max-delete', '1'];
    const refused = await runCli(args, { env });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/2 objects would be deleted, more than --max-delete 1/);
    expect(fs.readdirSync(path.join(env.XDG_STATE_HOME, 's3blitz'))).toEqual([]); // no journal, no lock left
    await putObjects(src, ['a/0']); // new, and before every key the refused run saw
    const next = await runCli(args, { env });
    expect(next.stderr).not.toMatch(/resuming/);
    expect(next.code).toBe(4);
    expect((await sequentialList(dst)).map((o) => o.Key)).toContain('a/0');
  });

  // A journal as an interrupted run leaves it: every key up to "zzz" finished.
  function interruptedJournal(file, ageMs) {
    fs.writeFileSync(file, [{ t: 'start', version: 1, command: 'cp' }, { t: 'mark', upTo: 'zzz', upToSource: 'zzz', done: [], totals: { copied: { objects: 7, bytes: 7 } } }].map((r) => JSON.stringify(r)).join('\n') + '\n');
    const t = new Date(Date.now() - ageMs);
    fs.utimesSync(file, t, t);
  }

  test('a journal younger than --resume-max-age is resumed (and says how to start afresh); an older one is not', async () => {
    const src = await createBucket(), dst = await createBucket();
    await putObjects(src, ['a', 'b']);
    const journal = path.join(state(), 'j.jsonl');
    interruptedJournal(journal, 3600e3);
    const young = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--journal', journal, '--json']);
    expect(young.stderr).toMatch(/resuming from .*j\.jsonl: 7 objects already copied, continuing after "zzz" \(--no-resume starts afresh\)/);
    expect(JSON.parse(young.stdout).copied.objects).toBe(7); // nothing after "zzz": the journal was used
    interruptedJournal(journal, 8 * 86400e3);
    const old = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--journal', journal, '--json']);
    expect(old.stderr).toMatch(/not resuming .*j\.jsonl: the run it belongs to stopped .*, longer ago than --resume-max-age; starting afresh/);
    expect(JSON.parse(old.stdout).copied.objects).toBe(2);
    interruptedJournal(journal, 3600e3);
    const limited = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--journal', journal, '--json', '--resume-max-age', '30m']);
    expect(limited.stderr).toMatch(/not resuming/);
    expect(JSON.parse(limited.stdout).copied.objects).toBe(2);
  });

  test('a second run of the same command while one runs is refused with exit 4 naming it; a lock left by a dead process is taken over', async () => {
    const src = await createBucket(), dst = await createBucket();
    await putObjects(src, ['a', 'b']);
    const journal = path.join(state(), 'j.jsonl');
    // The other run: a live process holding the command's lock.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(`${journal}.lock`, JSON.stringify({ pid: other.pid, host: os.hostname(), started: '2026-01-01T00:00:00.000Z', command: 'cp' }));
      const second = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--journal', journal]);
      expect(second.code).toBe(4);
      expect(lines(second.stderr)).toEqual([`s3blitz: another run of the same cp is in progress (pid ${other.pid}, started 2026-01-01T00:00:00.000Z): wait for it or stop it; its lock is ${journal}.lock`]);
      expect(await sequentialList(dst)).toEqual([]);
    } finally {
      other.kill('SIGKILL');
    }
    await new Promise((r) => (other.exitCode !== null || other.signalCode ? r() : other.once('exit', r)));
    const taken = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--journal', journal, '--json']);
    expect(taken.code).toBe(0);
    expect(taken.stderr).toMatch(new RegExp(`taking over the lock of an earlier run that is gone \\(pid ${other.pid}`));
    expect(JSON.parse(taken.stdout).copied.objects).toBe(2);
    expect(fs.existsSync(`${journal}.lock`)).toBe(false);
  });

  test('two identical runs started together: one copies, the other is refused', async () => {
    const src = await createBucket(), dst = await createBucket();
    await putObjects(src, Array.from({ length: 300 }, (_, i) => `k/${i}`));
    const env = { XDG_STATE_HOME: state() };
    const args = ['cp', `s3://${src}`, `s3://${dst}`, '--copy-concurrency', '2'];
    const [a, b] = await Promise.all([runCli(args, { env }), runCli(args, { env })]);
    const codes = [a.code, b.code].sort();
    // Both may also finish one after the other on a fast machine: then neither is refused.
    if (codes[1] === 4) {
      expect(codes).toEqual([0, 4]);
      expect([a, b].find((r) => r.code === 4).stderr).toMatch(/^s3blitz: another run of the same cp is (in progress \(pid \d+|starting \(its lock )/);
    } else expect(codes).toEqual([0, 0]);
    expect((await sequentialList(dst)).length).toBe(300);
  });
});

test('--max-failures: every object failing the same way stops the run, exit 1, one line per reason with its count', async () => {
  const src = await createBucket(), dst = await createBucket();
  await putObjects(src, Array.from({ length: 400 }, (_, i) => `o/${String(i).padStart(3, '0')}`));
  const r = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--storage-class', 'GLACIER_IR', '--copy-concurrency', '4', '--max-failures', '20', '--json']);
  expect(r.code).toBe(1);
  const res = JSON.parse(r.stdout);
  expect(res.copied.objects).toBe(0);
  expect(res.failed.objects).toBeGreaterThanOrEqual(20);
  expect(res.failed.objects).toBeLessThan(400); // stopped: not every object was tried
  expect(res.stoppedByFailures).toMatchObject({ count: 20, reason: expect.stringMatching(/InvalidStorageClass/) });
  const summary = lines(r.stderr).filter((l) => /^s3blitz: \d+ failed: /.test(l));
  expect(summary).toEqual([expect.stringMatching(new RegExp(`^s3blitz: ${res.failed.objects} failed: .*InvalidStorageClass`))]);
  expect(r.stderr).toMatch(/stopped after 20 objects failed the same way and none was copied \(--max-failures\)/);
  expect(await sequentialList(dst)).toEqual([]);
});

describe('a public bucket with --no-sign-request', () => {
  let pub, priv;
  beforeAll(async () => {
    pub = await createBucket();
    priv = await createBucket();
    await putObjects(pub, ['data/a.txt', 'data/b.txt', 'readme.md']);
    await putObjects(priv, ['secret']);
    await s3client().send(new PutBucketPolicyCommand({
      Bucket: pub,
      Policy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:GetBucketLocation', 's3:ListBucket'], Resource: [`arn:aws:s3:::${pub}`] },
          { Effect: 'Allow', Principal: { AWS: ['*'] }, Action: ['s3:GetObject'], Resource: [`arn:aws:s3:::${pub}/*`] },
        ],
      }),
    }));
  });
  // No credentials anywhere: a signed request could not even be made.
  const anon = { AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined };

  test.each([['lean', '1'], ['SDK', '0']])('every read command works without credentials (%s path)', async (name, fast) => {
    const env = { ...anon, S3BLITZ_FAST_PATHS: fast };
    const ls = await runCli(['ls', `s3://${pub}`, '--no-sign-request'], { env });
    expect({ code: ls.code, stderr: ls.stderr, stdout: ls.stdout }).toEqual({ code: 0, stderr: '', stdout: 'data/a.txt\ndata/b.txt\nreadme.md\n' });
    const sum = await runCli(['summarize', `s3://${pub}`, '--no-sign-request', '--json'], { env });
    expect(JSON.parse(sum.stdout).objects).toBe(3);
    const map = await runCli(['map', `s3://${pub}/data/`, '--no-sign-request', '--map', 'js:({Size}) => Size', '--reduce', 'js:(a, b) => a + b'], { env });
    expect(map.stdout).toBe('20\n');
    const each = await runCli(['each', `s3://${pub}/data/`, '--no-sign-request', '--map', 'js:({Key}) => console.log(Key)'], { env });
    expect(each.stdout).toBe('data/a.txt\ndata/b.txt\n');
    const cat = await runCli(['cat', `s3://${pub}/readme.md`, '--no-sign-request'], { env });
    expect(cat.stdout).toBe('readme.md');
    const head = await runCli(['head', `s3://${pub}/readme.md`, '--no-sign-request'], { env });
    expect(JSON.parse(head.stdout).ContentLength).toBe(9);
    const dir = path.join(tmp, `public-${name}`);
    const cp = await runCli(['cp', `s3://${pub}/data`, dir, '--no-sign-request'], { env });
    expect(cp.code).toBe(0);
    expect(fs.readdirSync(dir).sort()).toEqual(['a.txt', 'b.txt']);
    const cmp = await runCli(['compare', `s3://${pub}/data/`, dir, '--no-sign-request'], { env });
    expect(cmp.code).toBe(0);
    const sync = await runCli(['sync', `s3://${pub}/data/`, dir, '--no-sign-request', '--json'], { env });
    expect(JSON.parse(sync.stdout).copied.objects).toBe(0);
  });

  test('a bucket that is not public: access denied, one line, exit 3', async () => {
    const r = await runCli(['ls', `s3://${priv}`, '--no-sign-request'], { env: anon });
    expect(r.code).toBe(3);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/access denied/)]);
  });
});

describe('a profile with endpoint_url in ~/.aws/config', () => {
  let bucket;
  beforeAll(async () => {
    bucket = await createBucket();
    await putObjects(bucket, ['one', 'two']);
  });
  // Nothing in the environment says where MinIO is, or what the keys are: only the profile.
  function configEnv(text) {
    const file = path.join(fs.mkdtempSync(path.join(tmp, 'aws-')), 'config');
    fs.writeFileSync(file, text);
    return { AWS_CONFIG_FILE: file, AWS_ENDPOINT_URL: undefined, AWS_ACCESS_KEY_ID: undefined, AWS_SECRET_ACCESS_KEY: undefined };
  }
  const c = () => connection();
  const keys = () => `aws_access_key_id = ${c().accessKeyId}\naws_secret_access_key = ${c().secretAccessKey}\nregion = us-east-1\n`;

  test('endpoint_url in the profile', async () => {
    const env = configEnv(`[profile minio]\n${keys()}endpoint_url = ${c().endpoint}\n`);
    const r = await runCli(['ls', `s3://${bucket}`, '--profile', 'minio'], { env });
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: 'one\ntwo\n', stderr: '' });
    const viaEnv = await runCli(['list-buckets', '--json'], { env: { ...env, AWS_PROFILE: 'minio' } });
    expect(lines(viaEnv.stdout).map((l) => JSON.parse(l).Name)).toContain(bucket);
  });

  test('an s3 endpoint_url in the services section the profile names wins over the profile\'s own', async () => {
    const env = configEnv(`[profile minio]\n${keys()}endpoint_url = http://127.0.0.1:9\nservices = local-minio\n\n[services local-minio]\ns3 =\n  endpoint_url = ${c().endpoint}\n`);
    const r = await runCli(['cp', `s3://${bucket}/one`, path.join(tmp, 'one-from-profile'), '--profile', 'minio'], { env });
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(tmp, 'one-from-profile'), 'utf8')).toBe('one');
  });

  test('--profile nosuch: the profile does not exist, one line, exit 2', async () => {
    const env = configEnv(`[profile minio]\n${keys()}`);
    const r = await runCli(['ls', `s3://${bucket}`, '--profile', 'nosuch'], { env });
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^s3blitz: the profile "nosuch" does not exist \(--profile\): it is in neither .*config nor .*credentials$/)]);
  });
});

describe('wildcards and --include / --exclude select what --pattern selects', () => {
  let bucket;
  const keys = [
    'logs/2024/01/01/a.gz', 'logs/2024/01/02/b.gz', 'logs/2024/02/01/c.gz', 'logs/2024/02/01/d.txt', 'logs/2025/01/01/é.gz',
    'logs/2025/03/01/😀.gz', 'logs/x01/01/e.gz', 'logs01/01/f.gz', 'other/2024/01/01/g.gz', 'logs/2024/01/01/sub/h.gz',
  ];
  beforeAll(async () => {
    bucket = await createBucket();
    await putObjects(bucket, keys);
  });
  const ls = async (args) => {
    const r = await runCli(['ls', ...args]);
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter(Boolean);
  };

  test.each([
    ['logs/*/01/*', [], 'js:/^logs\\/.*\\/01\\/.*$/'],
    ['logs/202?/0*/01/*.gz', [], 'js:/^logs\\/202.\\/0.*\\/01\\/.*\\.gz$/'],
    ['logs/', ['--exclude', '*', '--include', '*.gz'], 'js:/^logs\\/.*\\.gz$/'],
    ['logs/', ['--exclude', '2024/*', '--include', '2024/01/*'], 'js:/^logs\\/(?!2024\\/)|^logs\\/2024\\/01\\//'],
    ['logs/2024/', ['--exclude', '*/01/*'], 'js:/^logs\\/2024\\/(?!.*\\/01\\/)/'],
    ['logs/*', ['--include', '*.gz', '--exclude', '[0-9]*[!z]'], 'js:/^logs\\/(?!\\d.*[^z]$)/'],
  ])('%s %j = --pattern %s', async (p, filters, pattern) => {
    const selected = await ls([`s3://${bucket}/${p}`, ...filters]);
    const expected = await ls([`s3://${bucket}/`, '--pattern', pattern]);
    expect(selected.length).toBeGreaterThan(0);
    expect(selected).toEqual(expected);
  });

  test('a lone --include selects everything, as aws-cli reads it, and says so in one line', async () => {
    const r = await runCli(['ls', `s3://${bucket}/logs/`, '--include', '*.gz']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("s3blitz: warning: --include alone selects every key (aws-cli's rule: a key no --exclude leaves out is kept); for only these keys, write --exclude '*' --include '*.gz'\n");
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(await ls([`s3://${bucket}/logs/`]));
    expect((await runCli(['ls', `s3://${bucket}/logs/`, '--include', '*.gz', '--quiet'])).stderr).toBe('');
  });

  test('globs of ls match relative to the path given, with or without its "/"; keys beside it that share its name relative to their own folder', async () => {
    const without = await ls([`s3://${bucket}/logs`, '--exclude', '2024/*']);
    expect(without).toEqual(keys.filter((k) => k.startsWith('logs') && !k.startsWith('logs/2024/')).sort());
    expect(without).toContain('logs01/01/f.gz');
    expect(without).toEqual((await ls([`s3://${bucket}/logs`])).filter((k) => !k.startsWith('logs/2024/')));
    expect(await ls([`s3://${bucket}/logs/`, '--exclude', '2024/*'])).toEqual(without.filter((k) => k.startsWith('logs/')));
  });

  test('sync --delete never deletes what --exclude or a wildcard left out of the source side', async () => {
    const src = await createBucket(), dst = await createBucket();
    await putObjects(src, ['d/a.txt', 'd/b.log']);
    await putObjects(dst, ['d/a.txt', 'd/b.log', 'd/c.log', 'd/old.txt']);
    const r = await runCli(['sync', `s3://${src}/d/`, `s3://${dst}/d/`, '--delete', '--exclude', '*.log', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).deleted.objects).toBe(1);
    expect((await sequentialList(dst)).map((o) => o.Key)).toEqual(['d/a.txt', 'd/b.log', 'd/c.log']);
    const g = await runCli(['sync', `s3://${src}/d/*.txt`, `s3://${dst}/d/`, '--delete', '--json']);
    expect(g.code).toBe(0);
    expect(JSON.parse(g.stdout).deleted.objects).toBe(0);
    expect((await sequentialList(dst)).map((o) => o.Key)).toEqual(['d/a.txt', 'd/b.log', 'd/c.log']);
  });

  test('cp and compare take the same selection; a wildcard that matches nothing says so', async () => {
    const dst = await createBucket();
    const cp = await runCli(['cp', `s3://${bucket}/logs/*/01/*`, `s3://${dst}/copy/`]);
    expect(cp.code).toBe(0);
    const copied = (await sequentialList(dst)).map((o) => o.Key);
    expect(copied).toEqual(keys.filter((k) => /^logs\/.*\/01\/.*$/.test(k)).map((k) => `copy/${k.slice('logs/'.length)}`).sort());
    const cmp = await runCli(['compare', `s3://${bucket}/logs/*/01/*`, `s3://${dst}/copy/`, '--json']);
    expect(JSON.parse(cmp.stdout).classes['only-target'].objects).toBe(0);
    expect(cmp.code).toBe(0);
    const none = await runCli(['ls', `s3://${bucket}/logs/*/99/*`]);
    expect({ code: none.code, stderr: none.stderr }).toEqual({ code: 1, stderr: `s3blitz: s3://${bucket}/logs/*/99/* matches no object\n` });
  });
});

describe('small things', () => {
  test('a bucket name no store accepts, or a source that is neither s3:// nor on disk: usage error, exit 2', async () => {
    const bad = await runCli(['ls', 's3://Invalid_Bucket']);
    expect({ code: bad.code, stderr: bad.stderr }).toEqual({ code: 2, stderr: 's3blitz: invalid bucket name "Invalid_Bucket"\n' });
    const typo = await runCli(['ls', 'my-bucket/logs']);
    expect({ code: typo.code, stderr: typo.stderr }).toEqual({ code: 2, stderr: 's3blitz: "my-bucket/logs" is neither an s3:// URL nor a local file or folder (did you mean s3://my-bucket/logs?)\n' });
  });

  test('--dry-run is --dryrun', async () => {
    const src = await createBucket(), dst = await createBucket();
    await putObjects(src, ['a']);
    const r = await runCli(['cp', `s3://${src}`, `s3://${dst}`, '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/would copy\s+1 object /);
    expect(await sequentialList(dst)).toEqual([]);
  });

  test('a listing stopped by Ctrl-C does not claim --max-list-requests', async () => {
    const src = await createBucket();
    await putObjects(src, Array.from({ length: 50 }, (_, i) => `k${i}`));
    const { testEnv, REPO_ROOT } = require('../helpers/s3env');
    // The map function says when it runs (and is slow): the signal comes once mapping began.
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 's3blitz.js'), 'map', `s3://${src}`,
      '--map', 'js:() => { process.stderr.write("mapping\\n"); return new Promise((r) => setTimeout(r, 200)); }', '--reduce', 'js:(a, b) => a'],
    { env: testEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '', err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => {
      err += d;
      if (err.includes('mapping') && !child.killed) child.kill('SIGINT');
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(130);
    expect(err).toMatch(/interrupted by SIGINT/);
    expect(out + err).not.toMatch(/max-list-requests/);
  });

  test('cp stopped by Ctrl-C: "interrupted", and not "the listing is incomplete (--max-list-requests)"', async () => {
    const { startFaultProxy } = require('../helpers/fault-proxy');
    const { testEnv, REPO_ROOT } = require('../helpers/s3env');
    const src = await createBucket(), dst = await createBucket();
    await putObjects(src, Array.from({ length: 300 }, (_, i) => `k/${String(i).padStart(3, '0')}`));
    const proxy = await startFaultProxy({ target: connection().endpoint });
    try {
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 's3blitz.js'), 'cp', `s3://${src}`, `s3://${dst}`, '--endpoint-url', proxy.endpoint,
        '--copy-concurrency', '1', '--no-journal'], { env: { ...testEnv(), S3BLITZ_FAST_PATHS: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '', err = '', copies = 0;
      child.stdout.on('data', (d) => { out += d; });
      child.stderr.on('data', (d) => { err += d; });
      const off = proxy.onRequest((info) => { if (info.type === 'COPY' && ++copies === 5) child.kill('SIGINT'); });
      const code = await new Promise((resolve) => child.on('close', resolve));
      off();
      expect(code).toBe(130);
      expect(out).toMatch(/^copied\s+\d+ objects/m);
      expect(out + err).not.toMatch(/max-list-requests/);
      expect(err).toMatch(/interrupted/);
    } finally {
      await proxy.close();
    }
  });
});
