'use strict';
const path = require('path');
const { keyToPath, localPath, tempPathFor, TEMP_PREFIX } = require('../../src/stores/local-paths');
const { ObjectError } = require('../../src/transfer/outcome');

const root = path.resolve('/tmp/dest-root');
const inside = (p) => p.startsWith(root + path.sep);

describe('keyToPath', () => {
  test.each([
    ['a', 'a'],
    ['a/b/c.txt', 'a/b/c.txt'],
    ['spaces and + % ? # & =', 'spaces and + % ? # & ='],
    ['ünï/中文/😀 🚀', 'ünï/中文/😀 🚀'],
    ['ctl/\u0001\t\n\r\u001f\u007f', 'ctl/\u0001\t\n\r\u001f\u007f'],
    ['...', '...'],
    ['a/.hidden', 'a/.hidden'],
    ['a/..b/b..', 'a/..b/b..'],
    [' .. ', ' .. '], // a real file name on POSIX, not a parent reference
    ['back\\slash', 'back\\slash'],
    ['x'.repeat(255), 'x'.repeat(255)],
    [`${'é'.repeat(127)}x`, `${'é'.repeat(127)}x`], // 255 bytes
  ])('maps %j under the root', (key, rel) => {
    const r = keyToPath(root, key);
    expect(r).toEqual({ path: path.join(root, ...rel.split('/')) });
    expect(inside(r.path)).toBe(true);
  });

  test.each([
    ['', /empty key/],
    ['..', /"\.\." path segment/],
    ['.', /"\." path segment/],
    ['../x', /"\.\." path segment/],
    ['a/../../etc/passwd', /"\.\." path segment/],
    ['a/./b', /"\." path segment/],
    ['a/..', /"\.\." path segment/],
    ['../', /"\.\." path segment/], // refused, not skipped as a folder marker
    ['/abs', /absolute/],
    ['/', /absolute/],
    ['//etc/passwd', /absolute/],
    ['a//b', /empty path segment/],
    ['a//', /empty path segment/],
    ['nul\0byte', /NUL/],
    ['x'.repeat(256), /256 bytes/],
    [`ok/${'é'.repeat(128)}`, /256 bytes/],
    [`${'😀'.repeat(64)}`, /256 bytes/],
  ])('refuses %j', (key, reason) => {
    const r = keyToPath(root, key);
    expect(r.path).toBeUndefined();
    expect(r.error).toMatch(reason);
  });

  test('keys ending in "/" are folder markers, skipped', () => {
    expect(keyToPath(root, 'a/')).toEqual({ skip: 'folder marker' });
    expect(keyToPath(root, 'a/b c/')).toEqual({ skip: 'folder marker' });
  });

  test('works with a relative root and a root with a trailing separator', () => {
    expect(keyToPath('rel/dir', 'k').path).toBe(path.resolve('rel/dir', 'k'));
    expect(keyToPath(root + path.sep, 'k').path).toBe(path.join(root, 'k'));
    expect(keyToPath('/', 'etc/x').path).toBe(path.resolve('/', 'etc', 'x'));
  });

  test('on Windows "\\" is a separator, and drive letters cannot escape the root', () => {
    const w = path.win32;
    expect(keyToPath('C:\\dest', 'a\\..\\..\\x', w).error).toMatch(/folder separator/);
    expect(keyToPath('C:\\dest', 'D:/x', w).error).toMatch(/outside/);
    expect(keyToPath('C:\\dest', 'D:', w).error).toMatch(/outside/);
    expect(keyToPath('C:\\dest', 'a/b.txt', w)).toEqual({ path: 'C:\\dest\\a\\b.txt' });
  });
});

describe('localPath', () => {
  test('throws ObjectErrors: failed for unsafe keys, skipped for folder markers', () => {
    expect(localPath(root, 'a/b')).toBe(path.join(root, 'a', 'b'));
    const unsafe = (() => { try { localPath(root, 'a/../../etc/passwd'); } catch (e) { return e; } })();
    expect(unsafe).toBeInstanceOf(ObjectError);
    expect(unsafe.status).toBe('failed');
    expect(unsafe.message).toMatch(/"\.\." path segment/);
    const marker = (() => { try { localPath(root, 'dir/'); } catch (e) { return e; } })();
    expect(marker.status).toBe('skipped');
  });
});

test('tempPathFor names a fresh hidden file in the same folder', () => {
  const target = path.join(root, 'a', 'b.bin');
  const t1 = tempPathFor(target);
  const t2 = tempPathFor(target);
  expect(path.dirname(t1)).toBe(path.dirname(target));
  expect(path.basename(t1).startsWith(TEMP_PREFIX)).toBe(true);
  expect(t1).not.toBe(t2);
});
