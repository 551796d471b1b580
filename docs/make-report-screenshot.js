#!/usr/bin/env node
'use strict';
// Makes docs/report.png, the README's picture of an HTML report: a summary of a made-up
// data-lake bucket (folders, sizes, ages, storage classes drawn from a seeded generator),
// rendered by the report and photographed by headless Chromium (test/helpers/chromium.js).
//   node docs/make-report-screenshot.js [out.png]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { pathToFileURL } = require('url');
const { Summary } = require('../src/stages/summary');
const report = require('../src/report');
const { Browser } = require('../test/helpers/chromium');

function rng(seed) {
  let s = seed >>> 0;
  return () => { s = (Math.imul(s ^ (s >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0; return s / 2 ** 32; };
}

function madeUpBucket() {
  const r = rng(17);
  const s = new Summary({ prefix: '' });
  const day = 86400000, start = Date.UTC(2023, 0, 1);
  const pick = (list) => list[Math.floor(r() * list.length)];
  const add = (Key, Size, t, StorageClass = 'STANDARD', multipart = false) =>
    s.add({ Key, Size: Math.round(Size), LastModified: new Date(t), StorageClass, ETag: multipart ? '"0123456789abcdef0123456789abcdef-8"' : '"0123456789abcdef0123456789abcdef"' });
  for (let i = 0; i < 30000; i++) {
    const t = start + Math.floor(r() * 700) * day;
    const d = new Date(t).toISOString().slice(0, 10).split('-');
    add(`raw/events/${d[0]}/${d[1]}/${d[2]}/part-${i}.json.gz`, 2e5 + r() * 6e6, t, t < start + 365 * day ? 'STANDARD_IA' : 'STANDARD');
  }
  for (let i = 0; i < 6000; i++) add(`curated/${pick(['orders', 'customers', 'sessions', 'payments'])}/${pick(['2023', '2024'])}/part-${i}.parquet`, 3e7 + r() * 9e7, start + r() * 700 * day, 'STANDARD', r() < 0.4);
  for (let i = 0; i < 400; i++) add(`ml/models/${pick(['ranker', 'churn', 'fraud'])}/v${i}/model.bin`, 2e8 + r() * 8e8, start + r() * 700 * day, 'STANDARD', true);
  for (let i = 0; i < 80; i++) add(`backups/db/${2023 + (i % 2)}/dump-${i}.tar.zst`, 5e9 + r() * 2e10, start + i * 8 * day, i < 50 ? 'DEEP_ARCHIVE' : 'GLACIER', true);
  for (let i = 0; i < 20000; i++) add(`logs/${pick(['web', 'api', 'batch'])}/${pick(['2023', '2024'])}/${i}.log`, r() * 4e5, start + r() * 700 * day);
  for (let i = 0; i < 500; i++) add(`tmp/${i}`, 0, start + r() * 700 * day);
  const summary = s.toJSON();
  summary.incompleteUploads = { uploads: 3, parts: 41, partsBytes: 41 * 64 * 2 ** 20, partsKnownFor: 3, oldestInitiated: '2023-06-02T08:00:00.000Z', examples: [] };
  const stats = { listRequests: 71, estimatedCostUSD: 0.000355, efficiency: 0.8 };
  return { summary, source: 's3://acme-data-lake', complete: true, stats, elapsedMs: 1900 };
}

async function main() {
  const out = path.resolve(process.argv[2] || path.join(__dirname, 'report.png'));
  const html = report(madeUpBucket(), { format: 'html', command: 's3blitz summarize s3://acme-data-lake --output report.html', generatedAt: '2025-06-02T09:30:00Z' });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-shot-')), 'report.html');
  fs.writeFileSync(file, html);
  const b = await Browser.launch({ width: 900, height: 900 });
  try {
    await b.goto(pathToFileURL(file).href);
    await b.screenshot(out, { maxHeight: 1180 });
  } finally {
    await b.close();
  }
  console.log(`${out}: ${fs.statSync(out).size} bytes (${Buffer.byteLength(html)} bytes of HTML)`);
}

main().catch((err) => { console.error(err); process.exit(1); });
