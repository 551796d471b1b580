'use strict';
// Content-MD5 goes with every upload until the target has answered a checksum it was sent with
// the same value (a server that checks checksums on receipt): from then on the checksum alone
// protects the body. A target that never echoes one keeps getting the MD5; so does every
// upload with --checksum-algorithm none.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { upload } = require('../../src/transfer/upload');
const { normalizeWriteOptions } = require('../../src/transfer/write-options');
const { RequestStats } = require('../../src/stats');
const { bufferChecksum } = require('../../src/stores/content-checksum');

function fakeTarget(echo) {
  const sent = [];
  return {
    sent,
    async putObjectFromFile(params, file) {
      const body = fs.readFileSync(file.path);
      const checksum = file.checksum ? await bufferChecksum(body, file.checksum) : undefined;
      sent.push({ noMd5: Boolean(file.noMd5), checksum: file.checksum });
      return { ETag: '"e"', bytes: body.length, checksum, ...(echo && checksum ? { [`Checksum${file.checksum}`]: checksum } : {}) };
    },
  };
}

async function uploadAll(dst, w, n = 3) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-md5-'));
  const stats = new RequestStats();
  for (let i = 0; i < n; i++) {
    fs.writeFileSync(path.join(root, `f${i}`), `body ${i}`);
    await upload({ item: { Key: `f${i}`, Size: 6 }, src: { root }, dst, key: `f${i}`, w, stats, largeCopyThreshold: 1 << 20 });
  }
  return stats.toJSON();
}

test('the MD5 stops once the target has echoed a checksum, not before', async () => {
  const dst = fakeTarget(true);
  expect(await uploadAll(dst, normalizeWriteOptions({}))).toMatchObject({ checksumsConfirmed: 3, checksumsUnconfirmed: 0 });
  expect(dst.sent).toEqual([{ noMd5: false, checksum: 'CRC64NVME' }, { noMd5: true, checksum: 'CRC64NVME' }, { noMd5: true, checksum: 'CRC64NVME' }]);
});

test('a target that never echoes one, and uploads without a checksum, keep the MD5', async () => {
  const silent = fakeTarget(false);
  expect(await uploadAll(silent, normalizeWriteOptions({ checksumAlgorithm: 'crc32' }))).toMatchObject({ checksumsConfirmed: 0, checksumsUnconfirmed: 3 });
  expect(silent.sent.every((s) => !s.noMd5 && s.checksum === 'CRC32')).toBe(true);
  const none = fakeTarget(true);
  await uploadAll(none, normalizeWriteOptions({ checksumAlgorithm: 'none' }));
  expect(none.sent).toEqual([{ noMd5: false, checksum: undefined }, { noMd5: false, checksum: undefined }, { noMd5: false, checksum: undefined }]);
});
