'use strict';
// Seeds a MinIO bucket (started like the tests do) with hierarchical keys and lists it with
// s3blitz, printing list requests, efficiency and time. Usage: node bench/minio-list.js [keys]
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { S3Client, CreateBucketCommand, PutObjectCommand } = require('@aws-sdk/client-s3');
const { startMinio } = require('../test/helpers/minio');
const s3blitz = require('../src');

async function main() {
  const n = Number(process.argv[2] || 100000);
  const m = await startMinio();
  try {
    const credentials = { accessKeyId: m.accessKeyId, secretAccessKey: m.secretAccessKey };
    const c = new S3Client({ endpoint: m.endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
    await c.send(new CreateBucketCommand({ Bucket: 'eff' }));
    const keys = [];
    for (let d = 1; keys.length < n; d++) for (let h = 0; h < 4 && keys.length < n; h++) for (let p = 0; p < 700 && keys.length < n; p++) keys.push(`logs/2024/${String(Math.ceil(d / 28)).padStart(2, '0')}/${String(((d - 1) % 28) + 1).padStart(2, '0')}/host-${h}/part-${String(p).padStart(5, '0')}.gz`);
    let next = 0;
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 48 }, async () => { while (next < keys.length) { const k = keys[next++]; await c.send(new PutObjectCommand({ Bucket: 'eff', Key: k, Body: 'x' })); } }));
    console.log(`seeded ${keys.length} keys in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    for (const listConcurrency of [100]) {
      const t = Date.now();
      const r = await s3blitz.summarize({ source: 's3://eff', endpointUrl: m.endpoint, region: 'us-east-1', credentials, listConcurrency });
      console.log(JSON.stringify({ listConcurrency, objects: r.summary.objects, ms: Date.now() - t, listRequests: r.stats.listRequests, efficiency: r.stats.efficiency, splits: r.stats.splits }));
    }
    c.destroy();
  } finally {
    await m.stop();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
