'use strict';
const { keyLines, escapeKey } = require('../../src/report/format');

const page = (keys) => keys.map((Key) => ({ Key, Size: 1 }));
const slow = (keys) => keys.map((k) => `${escapeKey(k)}\n`).join('');

test('a page of plain keys is one line per key, unchanged', () => {
  const keys = ['a', 'café/😀', 'x'.repeat(1024), 'dir/', ' lead and trail '];
  expect(keyLines(page(keys))).toBe(keys.join('\n') + '\n');
  expect(keyLines(page([]))).toBe('');
});

test('control characters anywhere in a page are escaped as \\xNN, newlines in keys included', () => {
  for (const bad of ['new\nline', 'tab\there', 'nul\u0000', 'del\u007f', 'cr\r', '\n', 'esc\u001b[31m']) {
    const keys = ['a', bad, 'z'];
    const out = keyLines(page(keys));
    expect(out).toBe(slow(keys));
    expect(out.split('\n')).toHaveLength(4); // three lines, whatever the keys hold
  }
  expect(keyLines(page(['a\nb']))).toBe('a\\x0ab\n');
});
