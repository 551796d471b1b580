'use strict';
// Measures one CopyObject against a multipart copy (UploadPartCopy, 8 parts at once) for
// growing object sizes on a local MinIO, to choose --large-copy-threshold.
// Usage: node bench/copy-threshold.js   (builds/starts MinIO like the tests do)
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const crypto = require('crypto');
const { CreateBucketCommand, PutObjectCommand } = require('@aws-sdk/client-s3');
const { startMinio } = require('../test/helpers/minio');
const { S3Store } = require('../src/stores/s3-store');
const { copySmall, copyMultipart } = require('../src/transfer/server-copy');
const { normalizeWriteOptions } = require('../src/transfer/write-options');
const { RequestStats } = require('../src/stats');

const MiB = 1024 * 1024;

async function main() {
  const m = await startMinio();
  try {
    const store = new S3Store({ bucket: 'thr', endpointUrl: m.endpoint, region: 'us-east-1', credentials: { accessKeyId: m.accessKeyId, secretAccessKey: m.secretAccessKey } });
    await store.client.send(new CreateBucketCommand({ Bucket: 'thr' }));
    const rows = [];
    for (const mib of [8, 16, 32, 64, 128, 256]) {
      const key = `src-${mib}`;
      const put = await store.client.send(new PutObjectCommand({ Bucket: 'thr', Key: key, Body: crypto.randomBytes(mib * MiB) }));
      const item = { Key: key, Size: mib * MiB, ETag: put.ETag, StorageClass: 'STANDARD' };
      const job = (k) => ({ src: store, dst: store, item, key: k, w: normalizeWriteOptions({}), partConcurrency: 8, stats: new RequestStats() });
      const time = async (fn, k) => { const t = process.hrtime.bigint(); await fn(job(k)); return Number(process.hrtime.bigint() - t) / 1e6; };
      const single = [], multi = [];
      for (let r = 0; r < 3; r++) {
        single.push(await time(copySmall, `single-${mib}-${r}`));
        multi.push(await time((j) => copyMultipart({ ...j, partSize: 8 * MiB }), `multi-${mib}-${r}`));
      }
      const med = (a) => a.sort((x, y) => x - y)[1];
      rows.push({ MiB: mib, copyObjectMs: med(single), multipartMs: med(multi), ratio: +(med(single) / med(multi)).toFixed(2) });
      console.log(JSON.stringify(rows[rows.length - 1]));
    }
    store.destroy();
  } finally {
    await m.stop();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
