'use strict';
// Memory of a large upload does not grow with the file: a 1 GiB file goes up in parts whose
// buffers share one budget, so the CLI's peak RSS stays under 300 MB. The object's ETag is
// checked against the MD5s of the file's parts, so the bytes are right too.
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { HeadObjectCommand } = require('@aws-sdk/client-s3');
const { createBucket, runCli, s3client } = require('../helpers/s3env');

const MiB = 1024 * 1024;
const SIZE = 1024 * MiB;
const PART = 16 * MiB; // the default part size of uploads

let dir;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-upmem-'));
  // A preload that reports the process's peak RSS (KiB) on stderr as it exits.
  fs.writeFileSync(path.join(dir, 'maxrss.js'), "process.on('exit', () => require('fs').writeSync(2, `\\nMAXRSS ${process.resourceUsage().maxRSS}\\n`));\n");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('uploading a 1 GiB file keeps peak RSS under 300 MB', async () => {
  const folder = path.join(dir, 'data');
  fs.mkdirSync(folder);
  const file = path.join(folder, 'big.bin');
  const fd = fs.openSync(file, 'w');
  const md5s = [];
  for (let at = 0; at < SIZE; at += PART) {
    const part = crypto.randomBytes(PART);
    md5s.push(crypto.createHash('md5').update(part).digest());
    fs.writeSync(fd, part);
  }
  fs.closeSync(fd);
  const etag = `"${crypto.createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${md5s.length}"`;

  const bucket = await createBucket();
  const res = await runCli(['cp', folder, `s3://${bucket}`, '--json', '--no-journal'], {
    env: { NODE_OPTIONS: `--require ${path.join(dir, 'maxrss.js')}` }, timeout: 600e3,
  });
  expect({ code: res.code, stderr: res.stderr.replace(/\s*MAXRSS \d+\s*/, '') }).toEqual({ code: 0, stderr: '' });
  expect(JSON.parse(res.stdout).copied).toEqual({ objects: 1, bytes: SIZE });
  const head = await s3client().send(new HeadObjectCommand({ Bucket: bucket, Key: 'big.bin' }));
  expect([head.ContentLength, head.ETag]).toEqual([SIZE, etag]);
  const peakMB = Number(/MAXRSS (\d+)/.exec(res.stderr)[1]) / 1024;
  // eslint-disable-next-line no-console
  console.log(`upload of 1 GiB: peak RSS ${peakMB.toFixed(0)} MB`);
  expect(peakMB).toBeLessThan(300);
}, 900000);
