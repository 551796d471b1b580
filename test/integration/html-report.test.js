'use strict';
// The report people hand to their team, end to end: a MinIO bucket with a known mix
// (folders, sizes across the histogram, STANDARD and REDUCED_REDUNDANCY objects, a
// multipart object, an incomplete multipart upload, troublesome keys), summarized by the
// CLI as JSON and as HTML; the HTML opened in headless Chromium (Debian's package,
// installed when missing) and read back from its DOM: totals equal the JSON's, every chart
// has a mark per row of its data, the treemap opens a folder and goes back out, tables
// sort, and the page makes no request but for itself. Screenshots go to test/output/.
// (LastModified cannot be set on MinIO: the age histogram's periods are unit-tested.)
const fs = require('fs');
const path = require('path');
const { pathToFileURL } = require('url');
const { PutObjectCommand, CreateMultipartUploadCommand, UploadPartCommand } = require('@aws-sdk/client-s3');
const { createBucket, putObjects, putMultipart, runCli, s3client, sequentialList } = require('../helpers/s3env');
const { Browser, ensureChromium } = require('../helpers/chromium');

const OUT = path.join(__dirname, '..', 'output', 'html-report');
const MiB = 1024 * 1024;

// Keys and sizes: folders two and three deep, one size in most histogram bins.
const SIZES = {
  'logs/2024/01/a.log': 0, 'logs/2024/01/b.log': 100, 'logs/2024/02/c.log': 2000, 'logs/2024/02/d.log.gz': 10000,
  'logs/2023/12/e.log.gz': 50000, 'images/cat.jpg': 300000, 'images/dog.jpg': 1500000, 'images/thumbs/t1.png': 700,
  'data/table.parquet': 5 * MiB, 'data/': 0, 'top.txt': 12,
};
const RRS = { 'archive/2019/old-1.dat': 4000, 'archive/2019/old-2.dat': 64000, 'archive/notes.txt': 30 };
const TROUBLE = {
  space: ' leading-space.txt',
  space2: 'trailing-space.txt ',
  control: 'ctrl\u0001char.txt',
  long: `long/${`${'y'.repeat(180)}/`.repeat(5)}end`, // 913 bytes, no segment over 255
  nfd: 'docs/cafe\u0301.txt',
  nfc: 'docs/caf\u00e9.txt',
};

let bucket, json, htmlFile, browser;

beforeAll(async () => {
  // Fails here, loudly, when Chromium cannot be installed (it never skips).
  ensureChromium();
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(OUT, { recursive: true });
  bucket = await createBucket();
  await putObjects(bucket, Object.entries({ ...SIZES, ...Object.fromEntries(Object.values(TROUBLE).map((k) => [k, 7])) })
    .map(([key, n]) => ({ key, body: Buffer.alloc(n, 1) })));
  for (const [key, n] of Object.entries(RRS)) {
    await s3client().send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: Buffer.alloc(n, 2), StorageClass: 'REDUCED_REDUNDANCY' }));
  }
  await putMultipart(bucket, 'data/big/multi.bin', [5 * MiB, MiB]);
  // Started and never completed: 5 MiB in one part that no listing of objects shows.
  const { UploadId } = await s3client().send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'data/big/unfinished.bin' }));
  await s3client().send(new UploadPartCommand({ Bucket: bucket, Key: 'data/big/unfinished.bin', UploadId, PartNumber: 1, Body: Buffer.alloc(5 * MiB, 3) }));

  const j = await runCli(['summarize', `s3://${bucket}`, '--json']);
  expect(j.stderr).toBe('');
  expect(j.code).toBe(0);
  json = JSON.parse(j.stdout);
  htmlFile = path.join(OUT, 'report.html');
  const h = await runCli(['summarize', `s3://${bucket}`, '--output', htmlFile, '--quiet']);
  expect(h.code).toBe(0);
  browser = await Browser.launch({ width: 1000, height: 900 });
  await browser.goto(pathToFileURL(htmlFile).href);
}, 30 * 60 * 1000); // an apt-get install of chromium, on a busy machine

afterAll(async () => {
  if (browser) await browser.close();
});

const marks = (chart) => browser.eval(`document.querySelectorAll('svg[data-chart="${chart}"] rect.mark').length`);
// The treemap's cells of a folder: its subfolders, its own files, (other); 0 bytes draw nothing.
const cellsOf = (node) => (node.children || []).filter((c) => c.bytes > 0).length + (node.files && node.files.bytes > 0 ? 1 : 0) + (node.other && node.other.bytes > 0 ? 1 : 0);

test('the JSON report holds the mix the bucket was seeded with', async () => {
  const listed = await sequentialList(bucket);
  expect(json.objects).toBe(listed.length);
  expect(json.bytes).toBe(listed.reduce((n, o) => n + o.Size, 0));
  expect(json.storageClasses.map((c) => c.name).sort()).toEqual(['REDUCED_REDUNDANCY', 'STANDARD']);
  expect(json.storageClasses.find((c) => c.name === 'REDUCED_REDUNDANCY')).toMatchObject({ objects: 3, bytes: 68030 });
  expect(json.storageCost.classes.find((c) => c.name === 'STANDARD').usdPerMonth).toBeGreaterThan(0);
  expect(json.multipart).toEqual({ objects: 1, bytes: 6 * MiB });
  expect(json.incompleteUploads).toMatchObject({ uploads: 1, parts: 1, partsBytes: 5 * MiB, partsKnownFor: 1 });
  expect(json.incompleteUploads.examples[0].key).toBe('data/big/unfinished.bin');
  expect(json.empty).toMatchObject({ objects: 2, folderMarkers: 1, examples: ['logs/2024/01/a.log'] });
  const kinds = Object.fromEntries(json.troubleKeys.kinds.map((k) => [k.kind, k]));
  expect(kinds.space.examples.sort()).toEqual([TROUBLE.space, TROUBLE.space2].sort());
  expect(kinds.control.examples).toEqual([TROUBLE.control]);
  expect(kinds.long.examples).toEqual([TROUBLE.long]);
  expect(kinds['not-nfc'].examples).toEqual([TROUBLE.nfd]);
  expect(kinds.normalization.objects).toBe(2);
  expect(json.largest[0]).toMatchObject({ key: 'data/big/multi.bin', size: 6 * MiB });
  expect(json.oldestObjects.length).toBe(20);
  expect(json.sizeQuantiles).toMatchObject({ min: 0, max: 6 * MiB });
  const root = json.tree.root;
  expect(root.objects).toBe(json.objects);
  expect(root.children.map((c) => c.name)).toEqual(expect.arrayContaining(['logs/', 'images/', 'data/', 'archive/', 'docs/', 'long/']));
  expect(root.children.find((c) => c.name === 'logs/').children.map((c) => c.name).sort()).toEqual(['2023/', '2024/']);
  // The old fields scripts read are all still there.
  for (const k of ['objects', 'bytes', 'minSize', 'meanSize', 'maxSize', 'histogram', 'storageClasses', 'extensions', 'oldest', 'newest', 'stats', 'complete', 'source']) expect(json).toHaveProperty(k);
});

test('the page makes no request but for itself', async () => {
  expect(browser.requests).toEqual([pathToFileURL(htmlFile).href]);
  expect(await browser.eval('window.__violations')).toEqual([]);
  expect(await browser.eval("performance.getEntriesByType('resource').map((e) => e.name)")).toEqual([]);
});

test('the headline figures equal the JSON report', async () => {
  const fig = (id) => browser.eval(`(() => { const e = document.querySelector('[data-figure="${id}"]'); return e && {value: e.dataset.value, text: e.querySelector('.v').textContent}; })()`);
  expect(await fig('objects')).toEqual({ value: String(json.objects), text: json.objects.toLocaleString('en-US') });
  expect((await fig('bytes')).value).toBe(String(json.bytes));
  expect((await fig('uploads')).value).toBe('1');
  expect((await fig('median')).value).toBe(String(json.sizeQuantiles.median));
  expect(Number((await fig('cost')).value)).toBeCloseTo(json.storageCost.usdPerMonth, 6);
});

test('every chart has as many marks as its data has rows', async () => {
  expect(await marks('size-objects')).toBe(json.histogram.length);
  expect(await marks('size-bytes')).toBe(json.histogram.length);
  expect(await marks('age-bytes')).toBe(json.ageHistogram.rows.length);
  expect(await marks('age-objects')).toBe(json.ageHistogram.rows.length);
  expect(await marks('classes-bytes')).toBe(json.storageClasses.length);
  expect(await marks('classes-objects')).toBe(json.storageClasses.length);
  expect(await marks('treemap')).toBe(cellsOf(json.tree.root));
  // Each bar says which row it is and its value.
  const bars = await browser.eval(`[...document.querySelectorAll('svg[data-chart="classes-bytes"] rect.mark')].map((r) => [r.dataset.label, +r.dataset.value])`);
  expect(bars).toEqual(json.storageClasses.map((c) => [c.name, c.bytes]));
  // And the tables have a row per row of data.
  const rows = (id) => browser.eval(`document.querySelectorAll('table[data-table="${id}"] tbody tr').length`);
  expect(await rows('extensions')).toBe(json.extensions.length);
  expect(await rows('largest')).toBe(json.largest.length);
  expect(await rows('oldest')).toBe(json.oldestObjects.length);
});

test('clicking a treemap cell opens that folder, and Up goes back out', async () => {
  const logs = json.tree.root.children.find((c) => c.name === 'logs/');
  const state = () => browser.eval(`({path: document.getElementById('treemap').dataset.path, cells: [...document.querySelectorAll('#treemap g.cell')].map((g) => g.dataset.name).sort(),
    crumbs: [...document.querySelectorAll('#tm-crumbs button')].map((b) => b.textContent), up: document.getElementById('tm-up').disabled})`);
  const before = await state();
  expect(before.up).toBe(true);
  expect(before.cells).toEqual(expect.arrayContaining(['logs/', 'images/', 'data/']));
  await browser.click('#treemap g.cell.drill[data-name="logs/"]');
  const inside = await state();
  expect(inside.path).toBe('logs/');
  expect(inside.cells).toEqual(['2023/', '2024/']);
  expect(await marks('treemap')).toBe(cellsOf(logs));
  expect(inside.crumbs).toEqual([`s3://${bucket}`, 'logs/']);
  expect(inside.up).toBe(false);
  await browser.click('#treemap g.cell.drill[data-name="2024/"]');
  expect((await state()).path).toBe('logs/2024/');
  expect((await state()).cells).toEqual(['01/', '02/']);
  await browser.screenshot(path.join(OUT, 'report-drilled.png'), { maxHeight: 1400 });
  await browser.click('#tm-up');
  expect((await state()).path).toBe('logs/');
  await browser.click('#tm-crumbs button[data-depth="0"]');
  expect(await state()).toEqual(before);
  expect(await marks('treemap')).toBe(cellsOf(json.tree.root));
});

test('tables sort by the column clicked', async () => {
  await browser.click('table[data-table="extensions"] thead th:nth-child(3)');
  const bytes = await browser.eval(`[...document.querySelectorAll('table[data-table="extensions"] tbody tr')].map((r) => +r.cells[2].dataset.v)`);
  expect(bytes).toEqual([...bytes].sort((a, b) => b - a));
  await browser.click('table[data-table="extensions"] thead th:nth-child(1)');
  await browser.click('table[data-table="extensions"] thead th:nth-child(1)');
  const names = await browser.eval(`[...document.querySelectorAll('table[data-table="extensions"] tbody tr')].map((r) => r.cells[0].dataset.v)`);
  expect(names).toEqual([...names].sort());
});

test('screenshots of the page, wide and phone-sized, saved under test/output', async () => {
  const wide = await browser.screenshot(path.join(OUT, 'report.png'));
  expect(fs.statSync(wide).size).toBeGreaterThan(10000);
  const phone = await Browser.launch({ width: 390, height: 844 });
  try {
    await phone.goto(pathToFileURL(htmlFile).href);
    // Nothing but the tables' own scrolling boxes is wider than the phone's screen.
    expect(await phone.eval('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
    expect(await phone.eval(`document.querySelectorAll('#treemap rect.mark').length`)).toBe(cellsOf(json.tree.root));
    await phone.screenshot(path.join(OUT, 'report-phone.png'));
    expect(phone.requests).toEqual([pathToFileURL(htmlFile).href]);
  } finally {
    await phone.close();
  }
});

test('negative control: a page that loads something is caught by the same watch', async () => {
  const file = path.join(OUT, 'leaky.html');
  fs.writeFileSync(file, '<!doctype html><title>leaky</title><img src="http://127.0.0.1:9/pixel.png">');
  const b = await Browser.launch();
  try {
    await b.goto(pathToFileURL(file).href);
    expect(b.requests).toEqual([pathToFileURL(file).href, 'http://127.0.0.1:9/pixel.png']);
  } finally {
    await b.close();
  }
});

test('Markdown and the compare report: --format and --output', async () => {
  const md = await runCli(['summarize', `s3://${bucket}`, '--format', 'markdown', '--quiet']);
  expect(md.code).toBe(0);
  expect(md.stdout).toMatch(/^# Bucket report: s3:\/\/.*\n/);
  expect(md.stdout).toContain(`| objects | ${json.objects} |`);
  expect(md.stdout).toContain('| REDUCED\\_REDUNDANCY | 3 |');
  const other = await createBucket();
  await putObjects(other, [{ key: 'logs/2024/01/a.log', body: Buffer.alloc(0) }, { key: 'images/cat.jpg', body: Buffer.alloc(1) }]);
  const file = path.join(OUT, 'compare.html');
  const cmp = await runCli(['compare', `s3://${bucket}`, `s3://${other}`, '--output', file, '--quiet']);
  expect(cmp.code).toBe(1);
  const html = fs.readFileSync(file, 'utf8');
  expect(html).toContain('data-table="difference-folders"');
  const j = JSON.parse((await runCli(['compare', `s3://${bucket}`, `s3://${other}`, '--json'])).stdout);
  const images = j.folders.find((f) => f.name === 'images/');
  expect(images.classes['size-differs']).toMatchObject({ objects: 1, examples: ['images/cat.jpg'] });
  expect(images.classes['only-source']).toMatchObject({ objects: 2 });
  // sync --dryrun says where the differences are, and changes nothing.
  const dry = await runCli(['sync', `s3://${bucket}/images/`, `s3://${other}/images/`, '--dryrun']);
  expect(dry.code).toBe(0);
  expect(dry.stdout).toMatch(/Differences by top-level folder\nfolder\s+class\s+objects\s+bytes\s+examples\n/);
  expect(dry.stdout).toMatch(/\n\(top\)\s+size-differs\s+1\s+.*images\/cat\.jpg/);
  expect(dry.stdout).toMatch(/\nthumbs\/\s+only-source\s+1\s+700 B\s+images\/thumbs\/t1\.png/);
  expect((await sequentialList(other)).length).toBe(2);
});
