'use strict';
// Directory-bucket sessions (src/stores/express-sessions.js): one CreateSession per bucket
// while it lives, a new one before its stated expiry, and a request answered ExpiredToken
// sent again with a new session, once per answer, unless its body cannot be sent again.
const { ExpressSessions, expiredSessionRetry, RENEW_BEFORE_MS, SESSION_RETRIES } = require('../../src/stores/express-sessions');

function provider(expiresIn = 300000) {
  const s = new ExpressSessions();
  s.opened = [];
  s.client = { send: async (cmd) => { s.opened.push(cmd.input.Bucket); const n = s.opened.length; return { Credentials: { AccessKeyId: `k${n}`, SecretAccessKey: 's', SessionToken: `t${n}`, Expiration: new Date(Date.now() + expiresIn) } }; } };
  return s;
}
const ID = { accessKeyId: 'user' };
const expired = () => Object.assign(new Error('The provided token has expired.'), { name: 'ExpiredToken' });

describe('directory bucket sessions', () => {
  test('one session per bucket while it lives, shared by requests at once', async () => {
    const s = provider();
    const ids = await Promise.all([1, 2, 3].map(() => s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' })));
    expect(ids.map((i) => i.sessionToken)).toEqual(['t1', 't1', 't1']);
    expect((await s.getS3ExpressIdentity(ID, { Bucket: 'b--x-s3' })).sessionToken).toBe('t2');
    expect(s.opened).toEqual(['a--x-s3', 'b--x-s3']);
  });

  test('a session within the renewal window of its stated expiry is replaced', async () => {
    const s = provider(RENEW_BEFORE_MS - 1000);
    await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' });
    expect((await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' })).sessionToken).toBe('t2');
  });

  test('other credentials open other sessions', async () => {
    const s = provider();
    await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' });
    expect((await s.getS3ExpressIdentity({ accessKeyId: 'other' }, { Bucket: 'a--x-s3' })).sessionToken).toBe('t2');
  });

  test('forget drops the session a request was signed with, never one opened after it', async () => {
    const s = provider();
    const used = (await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' })).sessionToken;
    s.forget('a--x-s3', used); // a request signed with session 1 is told it expired: it goes
    expect((await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' })).sessionToken).toBe('t2');
    s.forget('a--x-s3', used); // another request of session 1 hears the same: session 2 stays
    expect((await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' })).sessionToken).toBe('t2');
    expect(s.opened.length).toBe(2);
  });

  // A request through the pair of middleware, as the SDK runs them: `signed` sees the signed
  // request (its session token in a header) before `inner` sends it.
  function send(s, inner, input, onExpired) {
    const { retry, signed } = expiredSessionRetry(s, 'a--x-s3', onExpired);
    const context = {};
    const signing = async (args) => {
      const id = await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' });
      return signed(inner, context)({ ...args, request: { headers: { 'x-amz-s3session-token': id.sessionToken } } });
    };
    return retry(signing, context)({ input });
  }

  test('a request answered ExpiredToken goes again with a new session; a stream body does not', async () => {
    const s = provider();
    let told = 0;
    const tokens = [];
    const inner = async (args) => { tokens.push(args.request.headers['x-amz-s3session-token']); if (tokens.length === 1) throw expired(); return { ok: true }; };
    await expect(send(s, inner, { Body: Buffer.from('x') }, () => told++)).resolves.toEqual({ ok: true });
    expect({ tokens, told }).toEqual({ tokens: ['t1', 't2'], told: 1 });

    tokens.length = 0;
    s.forget('a--x-s3'); // a fresh session for the stream's request
    const { Readable } = require('stream');
    await expect(send(s, inner, { Body: Readable.from(['x']) })).rejects.toThrow('expired');
    expect(tokens).toEqual(['t3']);
    expect((await s.getS3ExpressIdentity(ID, { Bucket: 'a--x-s3' })).sessionToken).toBe('t4'); // its session was dropped all the same
  });

  test('a store that keeps answering ExpiredToken is not asked for ever', async () => {
    const s = provider();
    let calls = 0;
    await expect(send(s, async () => { calls++; throw expired(); }, {})).rejects.toThrow('expired');
    expect(calls).toBe(SESSION_RETRIES + 1);
    expect(s.opened.length).toBe(SESSION_RETRIES + 1);
  });

  test('other errors pass through untouched', async () => {
    const s = provider();
    let calls = 0;
    const err = Object.assign(new Error('denied'), { name: 'AccessDenied' });
    await expect(send(s, async () => { calls++; throw err; }, {})).rejects.toBe(err);
    expect(calls).toBe(1);
  });
});

describe('directory bucket lean listing requests', () => {
  const { LeanRequests } = require('../../src/stores/lean-requests');
  const { zonalHost } = require('../../src/stores/directory-bucket');
  const client = { config: { credentials: async () => ({ accessKeyId: 'user', secretAccessKey: 'secret' }), region: async () => 'us-west-2' } };

  test('are signed with the session for s3express, its token in x-amz-s3session-token, at the zonal endpoint', async () => {
    const s = provider();
    const lean = new LeanRequests({ bucket: 'logs--usw2-az1--x-s3', client: () => client, express: () => s, requestThread: false });
    try {
      const r = await lean._signed('GET', null, [['list-type', '2']], {});
      expect(r.options.hostname).toBe('logs--usw2-az1--x-s3.s3express-usw2-az1.us-west-2.amazonaws.com');
      expect(zonalHost('logs--usw2-az1--x-s3', 'us-west-2')).toBe(r.options.hostname);
      expect(r.secure).toBe(true);
      expect(r.options.headers['x-amz-s3session-token']).toBe('t1');
      expect(r.options.headers['x-amz-security-token']).toBeUndefined();
      expect(r.options.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=k1\/\d{8}\/us-west-2\/s3express\/aws4_request, SignedHeaders=[^,]*x-amz-s3session-token/);
    } finally {
      lean.destroy();
    }
  });

  test('a general-purpose bucket is signed as before', async () => {
    const lean = new LeanRequests({ bucket: 'logs', client: () => client, requestThread: false });
    try {
      const r = await lean._signed('GET', null, [['list-type', '2']], {});
      expect(r.options.hostname).toBe('logs.s3.us-west-2.amazonaws.com');
      expect(r.options.headers.authorization).toMatch(/Credential=user\/\d{8}\/us-west-2\/s3\/aws4_request/);
      expect(r.options.headers['x-amz-s3session-token']).toBeUndefined();
    } finally {
      lean.destroy();
    }
  });
});
