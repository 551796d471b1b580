'use strict';
// The path table (docs/commands.md), row by row, as a user types it: each row's command runs against
// MinIO (the bucket names `src` and `dst` replaced by fresh buckets) and what it writes (or
// that it refuses) must be exactly what the row says.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { createBucket, putObjects, sequentialList, runCli, REPO_ROOT } = require('../helpers/s3env');

// | `s3blitz cp ...` | `k1`, `k2` | or | ... | nothing: exit N, reason |
function readmeRows() {
  const text = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'commands.md'), 'utf8');
  const section = text.slice(text.indexOf('### Paths'), text.indexOf('**--include / --exclude GLOB**'));
  const rows = [];
  for (const line of section.split('\n')) {
    const m = /^\| `(s3blitz [^`]+)` \| (.+) \|$/.exec(line);
    if (!m) continue;
    const refused = /^nothing: exit (\d+), (.+)$/.exec(m[2]);
    rows.push({ command: m[1], writes: refused ? [] : [...m[2].matchAll(/`([^`]+)`/g)].map((x) => x[1]), exit: refused ? Number(refused[1]) : 0, says: refused ? refused[2] : null });
  }
  return rows;
}

// Shell words of a row: single quotes group, as in sh.
function words(command) {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1] : m[2]));
}

const rows = readmeRows();
let src, dir;

beforeAll(async () => {
  src = await createBucket();
  await putObjects(src, ['README', 'big/a.txt', 'big/sub/b.txt', 'bigger.txt']);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-paths-'));
}, 120000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('docs/commands.md has the path table', () => {
  expect(rows.length).toBeGreaterThanOrEqual(25);
});

function localFiles(root) {
  const out = [];
  const walk = (d, rel) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name), `${rel}${e.name}/`);
      else out.push(`./${rel}${e.name}`);
    }
  };
  walk(root, '');
  return out.sort();
}

describe.each(rows.map((r) => [r.command, r]))('%s', (command, row) => {
  test(row.exit ? `refuses (exit ${row.exit}: ${row.says})` : `writes ${row.writes.join(', ')}`, async () => {
    const dst = await createBucket();
    const cwd = fs.mkdtempSync(path.join(dir, 'row-'));
    fs.mkdirSync(path.join(cwd, 'data', 'sub'), { recursive: true });
    fs.writeFileSync(path.join(cwd, 'data', 'a.txt'), 'a');
    fs.writeFileSync(path.join(cwd, 'data', 'sub', 'b.txt'), 'b');
    fs.writeFileSync(path.join(cwd, 'one.txt'), 'one');
    const before = localFiles(cwd);
    const args = words(command).slice(1).map((w) => w.replace(/^s3:\/\/src\b/, `s3://${src}`).replace(/^s3:\/\/dst\b/, `s3://${dst}`).replace(/^src$/, src).replace(/^dst$/, dst));
    const r = await runCli(args, { cwd });
    const keys = (await sequentialList(dst)).map((o) => o.Key);
    const files = localFiles(cwd).filter((f) => !before.includes(f));
    if (row.exit) {
      expect({ code: r.code, keys, files }).toEqual({ code: row.exit, keys: [], files: [] });
      expect(r.stderr.trim().split('\n')).toHaveLength(1); // one line
      expect(r.stderr).toContain(row.says.replace(/^the keys would /, ''));
      return;
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect([...keys, ...files].sort()).toEqual([...row.writes].sort());
  });
});
