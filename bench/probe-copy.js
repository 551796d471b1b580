'use strict';
// Quick probe: server-side copy of a seeded fake bucket; prints objects/s and client CPU.
// Usage: node bench/probe-copy.js [objects] [latencyMs]
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { spawnFakeS3 } = require('./fake-s3');
const s3blitz = require('../src');

async function main() {
  const n = Number(process.argv[2] || 20000);
  const lat = Number(process.argv[3] || 30);
  const fake = await spawnFakeS3({ listLatencyMs: 100, otherLatencyMs: lat, seeds: [{ bucket: 'src-bucket', generator: 'hierarchical', count: n }] });
  try {
    await fetch(`${fake.endpoint}/__bucket?name=dst-bucket`, { method: 'POST' });
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    const r = await s3blitz.copy({ source: 's3://src-bucket', target: 's3://dst-bucket', endpointUrl: fake.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, journal: process.env.JOURNAL === '1' ? undefined : false });
    const ms = Date.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    console.log(JSON.stringify({ copied: r.copied.objects, failed: r.failed.objects, ms, perSec: Math.round(r.copied.objects / ms * 1000), cpuMsPerObject: +(((cpu.user + cpu.system) / 1000) / r.copied.objects).toFixed(3), retries: r.stats.retries, rssMB: Math.round(process.memoryUsage().rss / 1e6) }));
  } finally {
    await fake.close();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
