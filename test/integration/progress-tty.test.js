'use strict';
// The progress line on a real terminal: s3blitz runs in a pseudo-terminal (util-linux
// `script`), so stdout and stderr are the same tty. During cp the line keeps updating after
// the listing is complete (copied count, percentage, ETA); during ls it is cleared before
// every line of output, so no key line ever carries progress text; a summary line ends it.
const { spawn, spawnSync } = require('child_process');
const path = require('path');
const { createBucket, putObjects, sequentialList, testEnv, connection, REPO_ROOT } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');

const CLI = path.join(REPO_ROOT, 'bin', 's3blitz.js');
const quote = (s) => `'${String(s).replace(/'/g, "'\\''")}'`;

// Runs the CLI in a pseudo-terminal; resolves to everything the terminal received.
function inTerminal(args) {
  const cmd = [process.execPath, CLI, ...args].map(quote).join(' ');
  return new Promise((resolve, reject) => {
    // A redraw every 10 ms: frames are plentiful however fast or slow the machine is.
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env: { ...testEnv(), S3BLITZ_PROGRESS_MS: '10', TERM: 'xterm' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, text: Buffer.concat(out).toString('utf8').replace(/\r\n/g, '\n') }));
  });
}

// The progress frames drawn, in order (each starts with "\r\x1b[2K").
const frames = (text) => text.split('\r\x1b[2K').slice(1).map((f) => f.split(/[\r\n]/)[0]).filter(Boolean);
// The lines a person sees: what is left of each line after carriage returns and clears.
const visible = (text) => text.split('\n').map((l) => l.split('\x1b[2K').join('').split('\r').pop()).filter(Boolean);

let proxy, src;
beforeAll(async () => {
  const r = spawnSync('script', ['--version'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error('util-linux `script` is needed for the terminal test (apt-get install bsdutils)');
  src = await createBucket();
  await putObjects(src, Array.from({ length: 3000 }, (_, i) => `k/${String(i).padStart(5, '0')}`), { concurrency: 64 });
  // Every request 20 ms late: the copies take a while, so the line is seen updating.
  proxy = await startFaultProxy({ target: connection().endpoint, rates: { slow: 1 }, slowMs: 20 });
}, 300000);
afterAll(async () => { if (proxy) await proxy.close(); });

test('cp: the line updates during the copy phase (copied, rates, percentage, ETA) and ends with a summary line', async () => {
  const dst = await createBucket();
  const r = await inTerminal(['cp', `s3://${src}/k/`, `s3://${dst}/`, '--endpoint-url', proxy.endpoint, '--copy-concurrency', '4', '--stop-at', 'k/00299']);
  expect(r.code).toBe(0);
  const all = frames(r.text);
  // Frames once the listing is complete: no listing rate, a percentage and an ETA.
  const copying = all.filter((f) => /^listed 300 objects \([^)]*\), copied [\d,]+ \(/.test(f));
  const counts = copying.map((f) => Number(/copied ([\d,]+)/.exec(f)[1].replace(/,/g, '')));
  expect(new Set(counts.filter((n) => n > 0 && n < 300)).size).toBeGreaterThanOrEqual(2);
  expect(counts).toEqual([...counts].sort((a, b) => a - b)); // only ever up
  expect(copying.some((f) => /\d+\/s [\d.]+ (B|KiB|MiB)\/s, \d+% ETA \d+:\d\d, \d+:\d\d$/.test(f))).toBe(true);
  const seen = visible(r.text);
  expect(seen.filter((l) => /^listed 300 objects \(.*\), copied 300 \(.*\) in \d+:\d\d: [\d,]+ objects\/s, .*\/s$/.test(l))).toHaveLength(1);
  expect(seen).toContainEqual(expect.stringMatching(/^copied\s+300 objects/)); // the report, on its own line
  expect((await sequentialList(dst)).length).toBe(300);
});

test('ls: the line is drawn while keys are printed, and no printed line carries any of it', async () => {
  const r = await inTerminal(['ls', `s3://${src}`, '--endpoint-url', proxy.endpoint, '--list-concurrency', '1']);
  expect(r.code).toBe(0);
  const all = frames(r.text);
  // Frames were drawn before the keys came (the listing takes a few slow round trips), so
  // the output had to make way for them.
  const before = r.text.slice(0, r.text.indexOf('k/00000')).split('\r\x1b[2K').length - 1;
  expect(before).toBeGreaterThan(0);
  expect(all.some((f) => /^listed [\d,]+ objects/.test(f))).toBe(true);
  const seen = visible(r.text);
  const keys = seen.filter((l) => l.startsWith('k/'));
  expect(keys).toEqual(Array.from({ length: 3000 }, (_, i) => `k/${String(i).padStart(5, '0')}`));
  const rest = seen.filter((l) => !l.startsWith('k/'));
  expect(rest).toEqual([expect.stringMatching(/^listed 3,000 objects \(.*\) in \d+:\d\d: [\d,]+ objects\/s$/)]);
});
