'use strict';
// cp against a real MinIO, side by side: s3blitz, s5cmd and aws s3 cp --recursive on the same
// objects in one run, each into a fresh bucket. Prints objects/s and client CPU per object.
// Usage: node bench/minio-copy.js [objects]
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const path = require('path');
const { S3Client, CreateBucketCommand, PutObjectCommand, ListObjectsV2Command } = require('@aws-sdk/client-s3');
const { startMinio } = require('../test/helpers/minio');
const { ensurePeers, buildCommand, runPeer } = require('./peers');

async function count(c, bucket) {
  let n = 0, token;
  do {
    const r = await c.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
    n += r.KeyCount || 0;
    token = r.IsTruncated ? r.NextContinuationToken : undefined;
  } while (token);
  return n;
}

async function main() {
  const n = Number(process.argv[2] || 5000);
  const peers = await ensurePeers({});
  const m = await startMinio();
  try {
    const credentials = { accessKeyId: m.accessKeyId, secretAccessKey: m.secretAccessKey };
    const c = new S3Client({ endpoint: m.endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
    await c.send(new CreateBucketCommand({ Bucket: 'src' }));
    let next = 0;
    await Promise.all(Array.from({ length: 32 }, async () => {
      while (next < n) { const i = next++; await c.send(new PutObjectCommand({ Bucket: 'src', Key: `data/${String(i).padStart(6, '0')}.bin`, Body: Buffer.alloc(1024, i % 251) })); }
    }));
    const runs = [
      { name: 's3blitz', spec: (dst) => ({ peer: 's3blitz', op: 'copy', variant: 'default', cmd: process.execPath, args: [path.join(__dirname, '..', 'bin', 's3blitz.js'), 'cp', 's3://src', `s3://${dst}`, '--quiet', '--no-journal'], env: { ...process.env, AWS_ACCESS_KEY_ID: m.accessKeyId, AWS_SECRET_ACCESS_KEY: m.secretAccessKey, AWS_REGION: 'us-east-1', AWS_ENDPOINT_URL: m.endpoint } }) },
      { name: 's5cmd (--numworkers 512)', spec: (dst) => peers.s5cmd && buildCommand(peers, 's5cmd', 'copy', { endpoint: m.endpoint, src: 'src', dst, tuned: true, ...credentials }) },
      { name: 'aws s3 cp --recursive (max_concurrent_requests 100)', spec: (dst) => peers.aws && buildCommand(peers, 'aws', 'copy', { endpoint: m.endpoint, src: 'src', dst, tuned: true, ...credentials }) },
    ];
    const rows = [];
    for (const [i, r] of runs.entries()) {
      const dst = `dst${i}`;
      await c.send(new CreateBucketCommand({ Bucket: dst }));
      const spec = r.spec(dst);
      if (!spec) { rows.push({ tool: r.name, missing: true }); continue; }
      const res = await runPeer(spec, { countObjects: () => count(c, dst) });
      rows.push({ tool: r.name, ok: res.ok && res.count === n, objects: res.count, wallSec: +res.wallSec.toFixed(2), perSec: Math.round(res.count / res.wallSec), cpuMsPerObject: +((res.cpuSec * 1000) / res.count).toFixed(3), rssMB: Math.round(res.maxRssKb / 1024) });
      console.log(JSON.stringify(rows[rows.length - 1]));
    }
    c.destroy();
  } finally {
    await m.stop();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
