// A typed use of every export: compiled with tsc --noEmit by test/unit/types.test.js.
import * as s3blitz from 's3blitz';
import { FatalError, UsageError, SafetyError, S3BlitzError, EXIT, Item, CopyResult, CompareClass } from 's3blitz';

async function main(): Promise<number> {
  const conn = { endpointUrl: 'http://127.0.0.1:9000', region: 'us-east-1', credentials: { accessKeyId: 'a', secretAccessKey: 'b' } };
  for await (const item of s3blitz.items({ source: 's3://b/logs/', startAfter: 'logs/2024', ...conn })) {
    const k: string = item.Key;
    const n: number = item.Size;
    void k; void n;
  }
  for await (const page of s3blitz.pages({ source: './data' })) { const first: Item | undefined = page[0]; void first; }
  const listed = await s3blitz.ls({ source: 's3://b/*.gz', pathFilters: [{ exclude: '*' }, { include: '*.gz' }], noSignRequest: true });
  const keys: string[] = listed.items.map((i) => i.Key);
  if (listed.noMatch) console.error(listed.noMatch);
  const { summary, complete } = await s3blitz.summarize({ source: 's3://b', summarizeFolders: true, depth: 2, top: 5 });
  const objects: number = summary.objects;
  await s3blitz.each({ source: 's3://b', map: (i: Item) => console.log(i.Key), mapList: 'js:(items) => items.length' });
  const m = await s3blitz.map<number>({ source: 's3://b', map: (i) => i.Size, reduce: (a, b) => a + b, default: 0 });
  const copied: CopyResult = await s3blitz.copy({
    source: 's3://a/x/', target: 's3://b/y/', storageClass: 'STANDARD_IA', copyConcurrency: 200, maxFailures: 10,
    resumeMaxAge: '3d', onObject: (o) => { if (o.status !== 'copied') console.error(o.key, o.reason); },
    onProgress: (p) => { if (p.percent !== undefined) console.error(p.percent, p.etaMs, p.copied?.objects); },
  });
  const ok: boolean = copied.ok && copied.failureReasons.every((r) => r.count > 0);
  const diff = await s3blitz.compare({ source: './site', target: 's3://site/', checksum: 'download', show: ['only-source'] });
  const cls: CompareClass = 'older';
  const verdict: string = diff.verified ? 'identical' : `${diff.judgedBySize} by size only (${diff.classes[cls].objects} older)`;
  for await (const rec of diff.keys('only-source')) console.log(rec.key, rec.target?.Size);
  diff.dispose();
  const synced = await s3blitz.sync({ source: './site', target: 's3://site', delete: true, maxDelete: 100, onDelete: (e) => console.log(e.key) });
  const deleted: number = synced.deleted.objects;
  const removed = await s3blitz.rm({ source: 's3://b/tmp/', dryrun: true, maxDelete: 1000, deleteConcurrency: 8 });
  const gone: number = removed.deleted.objects + (removed.planned ? removed.planned.objects : 0);
  const alias = await s3blitz.delete({ source: 's3://b/one.txt' });
  const { stream, contentLength } = await s3blitz.cat({ source: 's3://b/k', range: '0-99' });
  stream.pipe(process.stdout);
  const h = await s3blitz.head({ source: 's3://b/k', tags: true });
  const tags: Record<string, string> | undefined = h.Tags;
  const up = await s3blitz.putStream({ target: 's3://b/k', stream: process.stdin, partSize: '16MiB', contentType: 'text/plain' });
  await s3blitz.mb({ source: 's3://new-bucket', region: 'eu-west-1' });
  const mf = await s3blitz.manifest({ source: 's3://b/logs/', output: 's3://b/manifests/logs.csv', pattern: '.gz' });
  const job: { ObjectArn: string; ETag: string } | null = mf.location;
  const fields: string[] = mf.spec.Fields;
  const row: string = s3blitz.batchManifest.manifestRow('b', 'a key+1.txt');
  const rb = await s3blitz.rb({ source: 's3://old-bucket', force: true, maxDelete: 10 });
  const plan = await s3blitz.plan({ source: 's3://b', shards: 8, planBudget: 200 });
  const first: string | null = plan.ranges[0].stopAt;
  const shard = await s3blitz.sync({ source: 's3://b', target: 's3://c', plan, shard: '3/8', result: 's3://results/sync-%i.json' });
  const merged = await s3blitz.merge(['results/sync-0.json', 's3://results/'], { maxDelete: 100 });
  const docs = await s3blitz.readResults(['results/sync-0.json']);
  const again = s3blitz.mergeResults(docs);
  const wrote: string = await s3blitz.writeResult('out-%i.json', 'sync', shard);
  const buckets = await s3blitz.listBuckets(conn);
  const names = buckets.map((b) => b.Name);
  const order: number = s3blitz.compareKeys('a', 'b');
  const text: string = s3blitz.report.copy(copied).text() + s3blitz.report.comparison(diff, { human: true }).json();
  for await (const v of s3blitz.items({ source: 's3://b', allVersions: true })) void [v.VersionId, v.IsLatest, v.DeleteMarker];
  for await (const o of s3blitz.items({ source: 's3://b', withMetadata: true, withTags: true })) void [o.ContentType, o.Metadata, o.Tags];
  const byType = await s3blitz.summarize({ source: 's3://b', by: 'content-type', largest: 5 });
  const heads: number | undefined = byType.metadataScan?.headRequests;
  const estimate = await s3blitz.estimateMetadataScan({ source: 's3://b', withMetadata: true });
  const versionsGone = await s3blitz.removeVersions({ source: 's3://b/tmp/', allVersions: true, maxDelete: 1000 });
  const markers: number | undefined = versionsGone.deleteMarkers?.objects;
  await s3blitz.copy({ source: 's3://b', target: 's3://restore', asOf: '2024-06-01T12:00:00Z' });
  await s3blitz.rb({ source: 's3://old-versioned', force: true, allVersions: true });
  void heads; void estimate.headRequests; void markers;
  const listing = new s3blitz.Listing({ source: 's3://b' });
  for await (const it of listing.items()) void it;
  listing.close();
  void keys; void complete; void objects; void m; void ok; void verdict; void deleted; void gone; void alias; void contentLength;
  void tags; void up; void rb; void names; void order; void text;
  void first; void merged.shards.of; void again; void wrote; void job; void fields; void row;
  return EXIT.OK;
}

main().catch((err: unknown) => {
  if (err instanceof FatalError || err instanceof UsageError || err instanceof SafetyError) process.exitCode = err.exitCode;
  else if (err instanceof S3BlitzError) process.exitCode = err.exitCode;
  else throw err;
});
