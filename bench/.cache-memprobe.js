process.env.AWS_EC2_METADATA_DISABLED = 'true';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const { spawnFakeS3 } = require('/work/main/bench/fake-s3');
const s3blitz = require('/work/main/src');
(async () => {
  const fake = await spawnFakeS3({ listLatencyMs: 100, otherLatencyMs: 30, seeds: [{ bucket: 'src-bucket', generator: 'hierarchical', count: 100000 }] });
  await fetch(`${fake.endpoint}/__bucket?name=dst-bucket`, { method: 'POST' });
  let maxRss = 0, maxHeap = 0;
  const t = setInterval(() => { const m = process.memoryUsage(); maxRss = Math.max(maxRss, m.rss); maxHeap = Math.max(maxHeap, m.heapUsed); }, 100);
  const r = await s3blitz.copy({ source: 's3://src-bucket', target: 's3://dst-bucket', endpointUrl: fake.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' }, journal: false, ...JSON.parse(process.env.O || '{}') });
  clearInterval(t);
  console.log(JSON.stringify({ copied: r.copied.objects, maxRssMB: Math.round(maxRss / 1e6), maxHeapMB: Math.round(maxHeap / 1e6), ext: Math.round(process.memoryUsage().external / 1e6) }));
  await fake.close();
})();
