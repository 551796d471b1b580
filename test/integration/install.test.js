'use strict';
// The install story the README tells: `npm pack` makes the tarball, `npm install` of it into
// an empty folder gives a working `s3blitz` and `require('s3blitz')`, and the code
// --api-example prints runs there. No example runs `npx` on the registry name (the package
// is not published: such a line would fail, or run someone else's code).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFile } = require('child_process');
const { REPO_ROOT, createBucket, putObjects, testEnv } = require('../helpers/s3env');

jest.setTimeout(600e3);

const run = (cmd, args, opts = {}) => new Promise((resolve) => {
  execFile(cmd, args, { timeout: 300e3, maxBuffer: 64 * 1024 * 1024, ...opts }, (err, stdout, stderr) => {
    resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
  });
});

let dir, app, bin;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-install-'));
  const pack = await run('npm', ['pack', '--pack-destination', dir], { cwd: REPO_ROOT });
  expect(pack.code).toBe(0);
  const { version } = require('../../package.json');
  const tarball = path.join(dir, `s3blitz-${version}.tgz`);
  expect(fs.existsSync(tarball)).toBe(true);
  app = path.join(dir, 'app');
  fs.mkdirSync(app);
  // The registry's packages come from npm's cache where `npm ci` left them.
  const install = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: app });
  if (install.code !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  bin = path.join(app, 'node_modules', '.bin', 's3blitz');
});

afterAll(() => { if (dir) fs.rmSync(dir, { recursive: true, force: true }); });

test('the installed command runs: --version, and summarize of a folder with no credentials', async () => {
  const v = await run(bin, ['--version'], { cwd: app });
  expect(v.stdout.trim()).toBe(require('../../package.json').version);
  const data = path.join(dir, 'data');
  fs.mkdirSync(path.join(data, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(data, 'a.txt'), 'hello');
  fs.writeFileSync(path.join(data, 'sub', 'b.bin'), Buffer.alloc(1000));
  const s = await run(bin, ['summarize', data, '--json'], { cwd: app, env: { PATH: process.env.PATH, HOME: dir, AWS_EC2_METADATA_DISABLED: 'true' } });
  expect(s.code).toBe(0);
  expect(JSON.parse(s.stdout)).toMatchObject({ objects: 2, bytes: 1005 });
});

test('the code --api-example prints runs where s3blitz is installed, against MinIO', async () => {
  const bucket = await createBucket();
  await putObjects(bucket, ['k/1', 'k/2', 'k/3']);
  const env = testEnv();
  const ex = await run(bin, ['ls', `s3://${bucket}/k/`, '--api-example'], { cwd: app, env });
  expect(ex.code).toBe(0);
  expect(ex.stdout).toMatch(/require\('s3blitz'\)/);
  fs.writeFileSync(path.join(app, 'example.js'), ex.stdout);
  const out = await run(process.execPath, ['example.js'], { cwd: app, env });
  expect(out.stderr).toBe('');
  expect(JSON.parse(out.stdout).items.map((i) => i.Key)).toEqual(['k/1', 'k/2', 'k/3']);
});

test('no README or docs example runs npx on the unpublished registry name', () => {
  const files = [path.join(REPO_ROOT, 'README.md'), ...fs.readdirSync(path.join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join(REPO_ROOT, 'docs', f))];
  for (const f of files) {
    const text = fs.readFileSync(f, 'utf8');
    expect({ file: path.basename(f), npx: text.match(/npx (--yes |-y )s3blitz[^\n]*/g) }).toEqual({ file: path.basename(f), npx: null });
  }
});
