'use strict';
// A multipart copy is proved by the stored full-object checksums of copy and source: the same
// value confirms it, another fails it naming both, a copy the server stores no checksum for
// is counted unconfirmed (and that server is not asked again in the run), and a target the run
// may not read (403) is counted unconfirmed, never failed.
const { copyMultipart } = require('../../src/transfer/server-copy');
const { normalizeWriteOptions } = require('../../src/transfer/write-options');
const { RequestStats } = require('../../src/stats');
const { ObjectError } = require('../../src/errors');

const MiB = 1024 * 1024;
const FULL = (v) => ({ ChecksumCRC64NVME: v, ChecksumType: 'FULL_OBJECT' });

function stores(copyHead) {
  const heads = [];
  const src = {
    bucket: 'src',
    async headObject(p) {
      heads.push(['src', p.PartNumber ? 'part' : 'plain', p.ChecksumMode]);
      return p.PartNumber ? { ContentLength: 5 * MiB, PartsCount: 3 } : { ContentLength: 12 * MiB, ...FULL('SOURCE') };
    },
  };
  const dst = {
    async createMultipartUpload() { return { UploadId: 'u' }; },
    async uploadPartCopy() { return { CopyPartResult: { ETag: '"p"' } }; },
    async completeMultipartUpload() { return { ETag: '"new-3"' }; },
    async abortUpload() {},
    async headObject(p) { heads.push(['dst', p.IfMatch, p.ChecksumMode]); return copyHead(); },
  };
  return { src, dst, heads };
}

const job = (s, stats) => ({
  src: s.src, dst: s.dst, item: { Key: 'k', Size: 12 * MiB, ETag: '"abc-3"' }, key: 'k', w: normalizeWriteOptions({}),
  stats, partConcurrency: 2, largeCopyThreshold: 8 * MiB,
});

test('the same stored value confirms the copy; the source is asked by a plain HEAD', async () => {
  const s = stores(() => FULL('SOURCE'));
  const stats = new RequestStats();
  expect(await copyMultipart(job(s, stats))).toMatchObject({ status: 'copied', etag: '"new-3"' });
  expect(stats.toJSON()).toMatchObject({ checksumsConfirmed: 1, checksumsUnconfirmed: 0 });
  expect(s.heads).toEqual([['src', 'part', 'ENABLED'], ['dst', '"new-3"', 'ENABLED'], ['src', 'plain', 'ENABLED']]);
});

test('another stored value fails the object, naming both', async () => {
  const s = stores(() => FULL('OTHER'));
  await expect(copyMultipart(job(s, new RequestStats()))).rejects.toEqual(new ObjectError('failed', 'the copy stores CRC64NVME OTHER where its source stores SOURCE'));
});

test('a copy stored without a checksum: unconfirmed, and the server is not asked again', async () => {
  const s = stores(() => ({ ContentLength: 12 * MiB }));
  const stats = new RequestStats();
  await copyMultipart(job(s, stats));
  await copyMultipart(job(s, stats));
  expect(stats.toJSON()).toMatchObject({ checksumsConfirmed: 0, checksumsUnconfirmed: 2 });
  expect(s.heads.filter(([side]) => side === 'dst')).toHaveLength(1);
});

test('a target the run may not read (403): unconfirmed, not failed', async () => {
  const s = stores(() => { throw Object.assign(new Error('AccessDenied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }); });
  const stats = new RequestStats();
  expect(await copyMultipart(job(s, stats))).toMatchObject({ status: 'copied' });
  expect(stats.toJSON()).toMatchObject({ checksumsUnconfirmed: 1 });
});
