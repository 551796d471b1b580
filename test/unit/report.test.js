'use strict';
// The reports render exactly what the CLI printed before they had a module of their own:
// report.expected.json holds that output, captured from the CLI's code of the time.
process.env.FORCE_COLOR = '0';
const report = require('../../src/report');
const f = require('../helpers/report-fixtures');
const expected = require('./report.expected.json');

test('summary: text and JSON', () => {
  expect(report.summary(f.summary).text()).toBe(expected.summaryText);
  expect(report.summary(f.summary).json()).toBe(expected.summaryJson);
});

test('comparison: text and JSON, and the --show lines', () => {
  expect(report.comparison(f.comparison).text()).toBe(expected.comparisonText);
  expect(report.comparison(f.comparison).json()).toBe(expected.comparisonJson);
  expect(f.pairs.map(report.pairLine.text).join('')).toBe(expected.pairsText);
  expect(f.pairs.map(report.pairLine.json).join('')).toBe(expected.pairsJson);
});

test('copy results of cp and sync, dry runs, and the lines of a run', () => {
  expect(report.copy(f.cp).text()).toBe(expected.cpText);
  expect(report.copy(f.cpDry).text()).toBe(expected.cpDryText);
  expect(report.copy(f.cp).json()).toBe(expected.cpJson);
  expect(report.copy(f.sync).text()).toBe(expected.syncText);
  expect(report.copy(f.syncDry).text()).toBe(expected.syncDryText);
  expect(report.copy(f.sync).json()).toBe(expected.syncJson);
  const ev = { size: 123456, key: 'a\u0001b', targetKey: 'x/a\u0001b' };
  expect(report.plannedLine(ev)).toBe(expected.plannedCp);
  expect(report.plannedLine(ev, { marked: true })).toBe(expected.plannedSync);
  expect(report.plannedDeleteLine(ev)).toBe(expected.plannedDelete);
  expect(report.problemLine('failed', 'k"1', 'why')).toBe('s3blitz: failed "k\\"1": why\n');
});

test('buckets and request statistics', () => {
  expect(report.buckets(f.buckets).text()).toBe(expected.bucketsText);
  expect(report.buckets(f.buckets).json()).toBe(expected.bucketsJson);
  expect(report.buckets([]).text()).toBe('');
  expect(report.format.statsText(f.stats)).toBe(expected.statsText);
});

test('the library exports the reports', () => {
  expect(require('../../src').report).toBe(report);
});

test('request statistics say what overlapping pages cost: keys parsed per unique key, and requests by what they were for', () => {
  const { RequestStats } = require('../../src/stats');
  const s = new RequestStats();
  s.listRequests = 3;
  s.listKind('root', 1000, 1000);
  s.listKind('cut', 1600, 1000);
  s.keysReturned = 2600;
  s.keysUnique = 2000;
  const json = s.toJSON();
  expect(json.parsedPerUnique).toBe(1.3);
  expect(json.efficiency).toBeCloseTo(2000 / 3000, 4);
  const text = report.format.statsText(json);
  expect(text).toContain('keys parsed per unique key 1.30');
  expect(text).toContain('requests by kind (root 1, cut 1)');
  expect(new RequestStats().toJSON().parsedPerUnique).toBeNull();
});
