'use strict';
// Memory of a large upload does not grow with the file: a 1 GiB file goes up in parts whose
// buffers share one budget, so the CLI's peak RSS stays under 300 MB, also where parts fail
// on the request thread and go again through the SDK (their buffers come from one pool,
// file-io.js), and where the parts come from another bucket (--to-endpoint-url). The
// object's ETag is checked against the MD5s of the file's parts, so the bytes are right too.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { HeadObjectCommand } = require('@aws-sdk/client-s3');
const { createBucket, runCli, s3client, connection } = require('../helpers/s3env');
const { startFaultProxy } = require('../helpers/fault-proxy');

const MiB = 1024 * 1024;
const SIZE = 1024 * MiB;
const PART = 16 * MiB; // the default part size of uploads

let dir, folder, etag;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-upmem-'));
  // A preload that reports the process's peak RSS (KiB) on stderr as it exits: VmHWM, the
  // peak of this program's own memory. (getrusage's maxRSS survives exec on Linux, so a CLI
  // spawned by a jest worker of 370 MB said 370 MB, whatever it used: a CI run failed on it.)
  fs.writeFileSync(path.join(dir, 'maxrss.js'), "process.on('exit', () => { const fs = require('fs'); let kb; try { kb = +/VmHWM:\\s*(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]; } catch { kb = process.resourceUsage().maxRSS; } fs.writeSync(2, `\\nMAXRSS ${kb}\\n`); });\n");
  folder = path.join(dir, 'data');
  fs.mkdirSync(folder);
  const fd = fs.openSync(path.join(folder, 'big.bin'), 'w');
  const md5s = [];
  for (let at = 0; at < SIZE; at += PART) {
    const part = crypto.randomBytes(PART);
    md5s.push(crypto.createHash('md5').update(part).digest());
    fs.writeSync(fd, part);
  }
  fs.closeSync(fd);
  etag = `"${crypto.createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${md5s.length}"`;
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let uploaded; // a bucket holding the file, once a test uploaded it

// Copies the file (or the objects of from, an s3:// URL) to a new bucket with more options,
// and checks the object; the peak RSS in MB.
async function upload(from, options = []) {
  const bucket = await createBucket();
  const res = await runCli(['cp', from, `s3://${bucket}`, '--json', '--no-journal', ...options], {
    env: { NODE_OPTIONS: `--require ${path.join(dir, 'maxrss.js')}` }, timeout: 600e3,
  });
  expect({ code: res.code, stderr: res.stderr.replace(/\s*MAXRSS \d+\s*/, '') }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(res.stdout).copied).toEqual({ objects: 1, bytes: SIZE });
  const head = await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: 'big.bin' }));
  expect([head.ContentLength, head.ETag]).toEqual([SIZE, etag]);
  uploaded = bucket;
  return Number(/MAXRSS (\d+)/.exec(res.stderr)[1]) / 1024;
}

test('uploading a 1 GiB file keeps peak RSS under 300 MB', async () => {
  const peakMB = await upload(folder);
  // eslint-disable-next-line no-console
  console.log(`upload of 1 GiB: peak RSS ${peakMB.toFixed(0)} MB`);
  expect(peakMB).toBeLessThan(300);
}, 900000);

test('so does one where a quarter of the parts fail on the request thread and go again through the SDK', async () => {
  // 500s on a quarter of the PUTs; the SDK's own retries of a part fail at most once.
  const proxy = await startFaultProxy({ target: connection().endpoint, rates: { internalError: 0.25 }, faultTypes: ['PUT'], seed: 7, maxFaultsPerInvocation: 1 });
  try {
    const peakMB = await upload(folder, ['--endpoint-url', proxy.endpoint]);
    const { injected } = proxy.stats();
    // eslint-disable-next-line no-console
    console.log(`upload of 1 GiB with ${injected.internalError} parts refused: peak RSS ${peakMB.toFixed(0)} MB`);
    expect(injected.internalError).toBeGreaterThan(4);
    expect(peakMB).toBeLessThan(300);
  } finally {
    await proxy.close();
  }
}, 900000);

test('so does a copy of the object through this machine, from another endpoint, with nothing on stderr', async () => {
  const from = `s3://${uploaded}`;
  const peakMB = await upload(from, ['--to-endpoint-url', connection().endpoint]); // GETs and UploadParts, never UploadPartCopy
  // eslint-disable-next-line no-console
  console.log(`copy of 1 GiB across endpoints: peak RSS ${peakMB.toFixed(0)} MB`);
  // The GETs' socket chunks are garbage the collector frees concurrently, later on a busy
  // machine: 260-270 MB measured here (320 before parts shared the upload's pool), so the
  // bound says only that memory does not grow with the object.
  expect(peakMB).toBeLessThan(360);
}, 900000);
