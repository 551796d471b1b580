'use strict';
// The compatibility suite (test/helpers/compat-suite.js) against s3proxy, which lists in
// UTF-16 order (s3blitz finds out and sorts on disk) and cannot list keys with control
// characters: its continuation token is the last key as raw XML, which then does not
// parse. Those keys are left out of the suite; what s3blitz does with them is pinned here.
const { compatSuite, byUtf8 } = require('../helpers/compat-suite');

const CONTROL = /[\u0001-\u001f\u007f]/;
compatSuite('s3proxy', { keep: (key) => !CONTROL.test(key), extra });

function extra(t) {
  const lines = (stdout) => stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).Key);

  test('keys with control characters at page ends: listed exactly, or exit 3 saying why', async () => {
    const b = await t.bucket('ctl');
    const keys = [];
    for (let i = 0; i < 2500; i++) keys.push(`d${i % 3}/k${i}\u0002${i % 5 ? '' : '\u0001x'}`);
    await t.putAll(b, keys.map((key) => ({ key, body: 'x' })));
    for (const args of [[], ['--sequential']]) {
      const r = await t.cli(['ls', `s3://${b}`, '--json', ...args]);
      console.log(`[s3blitz compat s3proxy] ls ${args.join(' ')} of control-character keys: exit ${r.code}; ${r.stderr.trim()}`);
      if (r.code === 0) expect(lines(r.stdout)).toEqual(keys.sort(byUtf8));
      else {
        expect(r.code).toBe(3);
        expect(r.stderr.trim().split('\n')).toHaveLength(1);
      }
    }
  });
}
