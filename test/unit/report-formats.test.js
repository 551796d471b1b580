'use strict';
// The Markdown and HTML reports of a fixed summary (test/helpers/full-summary.json: every
// section, with keys that would break a table or inject markup), and the library's
// report(result, {format}).
process.env.FORCE_COLOR = '0';
const s3blitz = require('../../src');
const report = require('../../src/report');
const full = require('../helpers/full-summary.json');
const f = require('../helpers/report-fixtures');
const { UsageError } = require('../../src/errors');

const opts = { command: 's3blitz summarize s3://team-bucket --format markdown', generatedAt: '2024-05-01T10:00:02Z' };

// A GFM table row's cells: split on pipes that no backslash escapes.
const cells = (line) => line.replace(/\\\\/g, '').split(/(?<!\\)\|/).slice(1, -1);

test('Markdown of a fixed summary (snapshot)', () => {
  expect(report(full, { format: 'markdown', ...opts })).toMatchSnapshot();
});

test('Markdown tables keep their shape whatever the keys hold', () => {
  const md = report.summary(full, opts).markdown();
  const lines = md.split('\n');
  let header = null;
  for (const line of lines) {
    if (!line.startsWith('|')) { header = null; continue; }
    const n = cells(line).length;
    if (header === null) header = n;
    expect(n).toBe(header);
  }
  // Keys are text: no raw markup, no raw control character, no line they could end.
  expect(md).not.toMatch(/(?<!\\)<script/);
  expect(md).toContain('| \\<script\\>alert(1)\\</ |');
  expect(md).toContain('ctrl\\\\x01char');
  expect(md).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
  const { mdEscape } = require('../../src/report/markdown');
  expect(mdEscape('a|pipe`tick*star_under[x](y)<b>&amp;~#!\\')).toBe('a\\|pipe\\`tick\\*star\\_under\\[x\\](y)\\<b\\>&amp;amp;\\~\\#\\!\\\\');
});

test('HTML: one self-contained page, its data escaped, no address to fetch', () => {
  const html = report(full, { format: 'html', ...opts });
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src \'none\';');
  expect(html).toContain('<meta name="viewport"');
  // Nothing is loaded: no src, no href but the empty data: icon, no url() in the style.
  expect(html).not.toMatch(/\ssrc=/i);
  expect([...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1])).toEqual(['data:,']);
  expect(html).not.toMatch(/url\(/);
  expect(html).not.toMatch(/@import/);
  // The key that is markup stays text, in the tables and in the script's data.
  expect(html).not.toContain('<script>alert(1)');
  expect(html).toContain('<td class="key" data-v="&lt;script&gt;alert(1)&lt;/">&lt;script&gt;alert(1)&lt;/</td>');
  const data = html.match(/<script type="application\/json" id="s3blitz-data">([^<]*)<\/script>/)[1];
  expect(JSON.parse(data).tree[0]).toBe('');
  expect(JSON.parse(data).tree[9].map((n) => n[0])).toContain('<script>alert(1)</');
  // Every chart, with a mark per row.
  const marks = (id) => (html.match(new RegExp(`<svg data-chart="${id}"[^>]*>(.*?)</svg>`))[1].match(/class="mark"/g) || []).length;
  expect(marks('size-objects')).toBe(full.summary.histogram.length);
  expect(marks('age-bytes')).toBe(full.summary.ageHistogram.rows.length);
  expect(marks('classes-bytes')).toBe(full.summary.storageClasses.length);
  expect(html).toContain('id="treemap"');
  for (const id of ['folders', 'extensions', 'largest', 'oldest']) expect(html).toContain(`<table class="sortable" data-table="${id}">`);
  expect(html).toContain('<code data-command>s3blitz summarize s3://team-bucket --format markdown</code>');
  expect(html).toContain('<time datetime="2024-05-01T10:00:02Z">');
});

test('the page\'s script is one inlined function that runs in a browser', () => {
  const html = report(full, { format: 'html' });
  const script = html.match(/<script>\((function s3blitzReport[\s\S]*?)\)\(document, JSON\.parse/)[1];
  // It parses as a function on its own: nothing from Node leaks into it.
  expect(() => new Function(`return (${script})`)()).not.toThrow();
  expect(script).not.toMatch(/\brequire\(|module\.exports|process\./);
});

test('library: report(result, {format}) and report.summary(result).format() agree, for every result it knows', () => {
  for (const fmt of ['text', 'json', 'markdown', 'html']) {
    expect(s3blitz.report(full, { format: fmt, ...opts })).toBe(s3blitz.report.summary(full, opts)[fmt]());
  }
  expect(s3blitz.report(full)).toBe(report.summary(full).text());
  expect(s3blitz.report(f.comparison, { format: 'json' })).toBe(report.comparison(f.comparison).json());
  expect(s3blitz.report(f.cp)).toBe(report.copy(f.cp).text());
  expect(s3blitz.report(f.buckets, { format: 'json' })).toBe(report.buckets(f.buckets).json());
  expect(() => s3blitz.report(full, { format: 'pdf' })).toThrow(UsageError);
  expect(() => s3blitz.report(f.cp, { format: 'html' })).toThrow(/a copy result has no html report/);
  expect(() => s3blitz.report({ nope: 1 })).toThrow(UsageError);
});

test('the summary JSON keeps every field scripts read, and adds the report\'s', () => {
  const j = JSON.parse(report.summary(full).json());
  for (const k of ['source', 'complete', 'objects', 'bytes', 'minSize', 'meanSize', 'maxSize', 'histogram', 'storageClasses', 'extensions', 'approximate', 'oldest', 'newest', 'stats']) expect(j).toHaveProperty(k);
  for (const k of ['sizeQuantiles', 'ageHistogram', 'storageCost', 'multipart', 'empty', 'tree', 'largest', 'oldestObjects', 'troubleKeys', 'incompleteUploads', 'elapsedMs']) expect(j).toHaveProperty(k);
});

test('comparison in Markdown and HTML: classes and the differences per folder', () => {
  const cmp = { ...f.comparison, folders: [{ name: 'logs/', objects: 5, differ: 2, classes: { 'only-source': { objects: 2, bytes: 10, examples: ['logs/a|b', 'logs/c'] }, same: { objects: 3, bytes: 3, examples: [] } } }] };
  const md = report(cmp, { format: 'markdown', generatedAt: '2024-01-01T00:00:00Z' });
  expect(md).toContain('| logs/ | only-source | 2 | 10 B | logs/a\\|b, logs/c |');
  expect(md).not.toMatch(/\| same \| 3 \| 3 B \|.*logs/);
  const html = report(cmp, { format: 'html' });
  expect(html).toContain('data-table="difference-folders"');
  expect((html.match(/<svg data-chart="compare-classes"[^>]*>(.*?)<\/svg>/)[1].match(/class="mark"/g) || []).length).toBe(Object.keys(cmp.classes).length);
  expect(report.comparison(cmp).text()).toMatch(/Differences by top-level folder\nfolder\s+class\s+objects\s+bytes\s+examples\nlogs\/\s+only-source\s+2\s+10 B\s+logs\/a\|b, logs\/c\n/);
});
