'use strict';
// Quick probe: list a seeded fake bucket with the library and print rate and client CPU.
// Usage: node bench/probe-list.js [keys] [generator] [latencyMs]
process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const { spawnFakeS3 } = require('./fake-s3');
const s3blitz = require('../src');

async function main() {
  const n = Number(process.argv[2] || 200000);
  const gen = process.argv[3] || 'hierarchical';
  const lat = Number(process.argv[4] || 100);
  const fake = await spawnFakeS3({ listLatencyMs: lat, otherLatencyMs: 30, seeds: [{ bucket: 'bench', generator: gen, count: n }] });
  try {
    const opts = { source: 's3://bench', endpointUrl: fake.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, unordered: process.env.ORDERED !== '1' };
    const cpu0 = process.cpuUsage();
    const t0 = Date.now();
    let count = 0;
    const listing = new s3blitz.Listing(opts);
    for await (const page of listing.pages()) count += page.length;
    const ms = Date.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const st = listing.stats.toJSON();
    listing.close();
    console.log(JSON.stringify({ keys: count, ms, keysPerSec: Math.round(count / ms * 1000), cpuMsPer1000: +(((cpu.user + cpu.system) / 1000) / (count / 1000)).toFixed(2), efficiency: st.efficiency, requests: st.listRequests, rssMB: Math.round(process.memoryUsage().rss / 1e6) }));
  } finally {
    await fake.close();
  }
}
main().catch((e) => { console.error(e); process.exit(1); });
