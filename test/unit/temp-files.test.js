'use strict';
// The temp files of a journaled run (issue 27): named with the run's token, their folders in
// the journal before the first is made, and removed by the run that takes the journal over,
// which leaves every other name alone (another run's token, a run without a journal).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { Journal } = require('../../src/journal/journal');
const { RunJournal } = require('../../src/journal/run-journal');
const { tempPathFor, jobTempPath, TEMP_PREFIX } = require('../../src/stores/local-paths');
const { removeRunTempFiles, newRunToken, isRunToken } = require('../../src/stores/temp-files');
const { localCopy } = require('../../src/transfer/local-copy');

let dir;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-temp-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const records = (file) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const touch = (file) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, 'x'); return file; };
const names = (d) => fs.readdirSync(d).sort();

test('a temp name carries the run\'s token; one without a token can never match a run\'s', () => {
  const token = newRunToken();
  expect(isRunToken(token)).toBe(true);
  const target = path.join(dir, 'a', 'b.bin');
  const t = tempPathFor(target, token);
  expect(path.dirname(t)).toBe(path.dirname(target));
  expect(path.basename(t)).toMatch(new RegExp(`^\\.s3blitz-tmp-${token}-[0-9a-f]{16}$`));
  expect(tempPathFor(target, token)).not.toBe(t);
  expect(path.basename(tempPathFor(target))).toMatch(/^\.s3blitz-tmp-[0-9a-f]{16}$/); // no dash after the random part's start
  for (const bad of ['', 'x', '*', '../a', 'ABCDEF123456', '0123456789a']) expect(isRunToken(bad)).toBe(false);
});

test('removeRunTempFiles removes the token\'s files in the listed folders and nothing else', async () => {
  const token = 'a1b2c3d4e5f6';
  const other = 'a1b2c3d4e5f7';
  const mine = [touch(path.join(dir, 'x', `${TEMP_PREFIX}${token}-0123456789abcdef`)), touch(path.join(dir, 'x', 'y', `${TEMP_PREFIX}${token}-1`))];
  const keep = [
    touch(path.join(dir, 'x', `${TEMP_PREFIX}${other}-0123456789abcdef`)), // another run (another shard)
    touch(path.join(dir, 'x', `${TEMP_PREFIX}${token}0-1`)), // a longer token that starts like this one
    touch(path.join(dir, 'x', `${TEMP_PREFIX}0123456789abcdef`)), // a run without a journal
    touch(path.join(dir, 'x', `${token}-file`)),
    touch(path.join(dir, 'x', 'plain.txt')),
    touch(path.join(dir, 'z', `${TEMP_PREFIX}${token}-2`)), // a folder the journal does not name
  ];
  fs.mkdirSync(path.join(dir, 'x', `${TEMP_PREFIX}${token}-dir`)); // never a file of ours: left
  const r = await removeRunTempFiles({ token, dirs: [path.join(dir, 'x'), path.join(dir, 'x', 'y'), path.join(dir, 'gone'), 'relative/x'] });
  expect(r).toEqual({ removed: 2, failed: [], failedCount: 0 });
  for (const f of mine) expect(fs.existsSync(f)).toBe(false);
  for (const f of keep) expect(fs.existsSync(f)).toBe(true);
  expect(fs.existsSync(path.join(dir, 'x', `${TEMP_PREFIX}${token}-dir`))).toBe(true);
  // A token that is not one removes nothing.
  expect(await removeRunTempFiles({ token: '', dirs: [path.join(dir, 'x')] })).toMatchObject({ removed: 0 });
});

test('the journal keeps the token and each temp folder once, written through before the temp file is named', async () => {
  const file = path.join(dir, 'state', 'cp.jsonl');
  const rj = RunJournal.open('cp', { journal: file });
  try {
    const token = rj.journal.token;
    expect(isRunToken(token)).toBe(true);
    const folder = path.join(dir, 'target', 'f');
    // Many temp files at once in one folder: one record, on disk when the first name is given.
    const job = { onTempDir: RunJournal.copierHooks(rj, undefined, {}).onTempDir };
    const first = jobTempPath(job, path.join(folder, 'a')).then((t) => ({ t, onDisk: records(file).filter((r) => r.t === 'tmpdir') }));
    const all = await Promise.all([first, ...Array.from({ length: 20 }, (_, i) => jobTempPath(job, path.join(folder, `k${i}`)))]);
    expect(all[0].onDisk).toEqual([{ t: 'tmpdir', dir: folder }]);
    for (const t of [all[0].t, ...all.slice(1)]) expect(path.basename(t).startsWith(`${TEMP_PREFIX}${token}-`)).toBe(true);
    await jobTempPath(job, path.join(dir, 'target', 'g', 'b'));
    rj.journal.flush();
    const recs = records(file);
    expect(recs[0]).toEqual({ t: 'start', version: 1, command: 'cp', token });
    expect(recs.filter((r) => r.t === 'tmpdir').map((r) => r.dir)).toEqual([folder, path.join(dir, 'target', 'g')]);
  } finally { rj.journal.close(); }
});

test('a resumed run removes the temp files of the run it takes over, goes on with its token, and says how many', async () => {
  const file = path.join(dir, 'state', 'cp.jsonl');
  const target = path.join(dir, 'target');
  const first = RunJournal.open('cp', { journal: file });
  const token = first.journal.token;
  const hooks = RunJournal.copierHooks(first, undefined, {});
  // What a kill leaves: temp files of copies in flight in two folders, beside another run's.
  const left = [];
  for (const k of ['a/1', 'a/2', 'b/c/3']) {
    const t = await jobTempPath({ onTempDir: hooks.onTempDir }, path.join(target, k));
    left.push(touch(t));
  }
  const other = touch(path.join(target, 'a', `${TEMP_PREFIX}${newRunToken()}-0123456789abcdef`));
  const noJournal = touch(tempPathFor(path.join(target, 'b', 'c', 'x')));
  first.journal.close(); // as a kill leaves it (the lock goes with the process)

  const again = RunJournal.open('cp', { journal: file });
  try {
    expect(again.resumed).toBe(true);
    expect(again.journal.token).toBe(token);
    const r = await again.cleanupTemp();
    expect(r).toMatchObject({ removed: 3, failedCount: 0, text: `removed 3 temporary files the earlier run left (${TEMP_PREFIX}${token}-*)` });
    expect(again.describe(r)).toMatch(/resuming from .*: 0 objects already copied; removed 3 temporary files the earlier run left .* \(--no-resume starts afresh\)$/);
    for (const f of left) expect(fs.existsSync(f)).toBe(false);
    expect(fs.existsSync(other)).toBe(true);
    expect(fs.existsSync(noJournal)).toBe(true);
    expect((await again.cleanupTemp()).removed).toBe(0); // once
  } finally { again.journal.close(); }
});

test('a journal not resumed (--no-resume) still has its run\'s temp files removed; a journal without a token gets one', async () => {
  const file = path.join(dir, 'state', 'cp.jsonl');
  const first = RunJournal.open('cp', { journal: file });
  const t = touch(await jobTempPath({ onTempDir: RunJournal.copierHooks(first, undefined, {}).onTempDir }, path.join(dir, 't', 'k')));
  const oldToken = first.journal.token;
  first.journal.close();
  const fresh = RunJournal.open('cp', { journal: file, resume: false });
  try {
    expect(fresh.resumed).toBe(false);
    expect(fresh.journal.token).not.toBe(oldToken);
    expect(await fresh.cleanupTemp()).toMatchObject({ removed: 1 });
    expect(fs.existsSync(t)).toBe(false);
  } finally { fresh.journal.remove(); }

  // A journal written before tokens: nothing of it can be told apart, so nothing is removed.
  fs.writeFileSync(file, `${JSON.stringify({ t: 'start', version: 1, command: 'cp' })}\n`);
  const legacy = RunJournal.open('cp', { journal: file });
  try {
    expect(legacy.resumed).toBe(true);
    expect(isRunToken(legacy.journal.token)).toBe(true);
    expect((await legacy.cleanupTemp()).removed).toBe(0);
    legacy.journal.flush();
    expect(records(file)[1]).toEqual({ t: 'token', token: legacy.journal.token });
  } finally { legacy.journal.remove(); }
});

test('a local copy in a journaled run writes through a temp file named with the token, and leaves none', async () => {
  const file = path.join(dir, 'state', 'cp.jsonl');
  const rj = RunJournal.open('cp', { journal: file });
  try {
    const src = path.join(dir, 'src');
    touch(path.join(src, 'p', 'q.txt'));
    const seen = [];
    const onTempDir = async (d) => { const tok = await rj.tempDir(d); seen.push(d); return tok; };
    const stats = { bytes: 0 };
    const out = await localCopy({ item: { Key: 'p/q.txt' }, src: { root: src }, dst: { root: path.join(dir, 'dst') }, key: 'p/q.txt', stats, onTempDir });
    expect(out).toEqual({ status: 'copied', bytes: 1 });
    expect(seen).toEqual([path.join(dir, 'dst', 'p')]);
    expect(names(path.join(dir, 'dst', 'p'))).toEqual(['q.txt']);
    expect(fs.readFileSync(path.join(dir, 'dst', 'p', 'q.txt'), 'utf8')).toBe('x');
  } finally { rj.journal.close(); }
});
