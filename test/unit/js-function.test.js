'use strict';
const { compileJs, userFunction, keyMatcher } = require('../../src/js-function');
const { UsageError } = require('../../src/errors');

test('compiles arrow functions and regexps', () => {
  expect(compileJs('js:(k) => k + ".backup"', '--to-key')('a')).toBe('a.backup');
  expect(userFunction('js: ({Size}) => Size > 10', '--filter')({ Size: 11 })).toBe(true);
  expect(keyMatcher('js:/\\.gz$/i')('A.GZ')).toBe(true);
  expect(keyMatcher('needle')('haystack-needle')).toBe(true);
  expect(keyMatcher('needle')('hay')).toBe(false);
  expect(keyMatcher(/x/)('x')).toBe(true);
});

test('errors are usage errors naming the option', () => {
  expect(() => compileJs('js:(x =>', '--map')).toThrow(UsageError);
  expect(() => compileJs('js:(x =>', '--map')).toThrow(/--map: cannot parse/);
  expect(() => compileJs('js:42', '--map')).toThrow(/not a function/);
  expect(() => userFunction('x => x', '--map')).toThrow(/must be a js: function/);
  expect(() => keyMatcher('js:(x) => x')).toThrow(/regular expression/);
});
