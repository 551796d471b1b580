'use strict';
// The lean HTTP/1.1 client against a raw TCP server that writes answers byte by byte as
// scripted: every framing S3 and its look-alikes use, split at every boundary.
const net = require('net');
const fs = require('fs');
const path = require('path');
const https = require('https');
const { HttpPool, FallBack, parseHead } = require('../../src/stores/http-pool');

const servers = new Set(); // closed after each test, failed or not

// A server whose answer to each request is answer(requestHead, socket, n); n counts requests.
async function rawServer(answer) {
  const sockets = new Set();
  let requests = 0;
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        const head = buf.slice(0, end);
        buf = buf.slice(end + 4);
        answer(head, socket, ++requests);
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const handle = {
    port: server.address().port,
    get connections() { return connections; },
    get open() { return sockets.size; },
    close: () => {
      servers.delete(handle);
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
  servers.add(handle);
  return handle;
}

const req = (port, path = '/b?list-type=2', headers = {}) => ({
  secure: false,
  options: { hostname: '127.0.0.1', port, method: 'GET', path, headers: { host: `127.0.0.1:${port}`, ...headers } },
});

// Writes text one piece at a time, each in its own TCP segment as far as Node can make it.
// done: called once the last piece is written.
function dribble(socket, text, size, done = () => {}) {
  const pieces = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  let i = 0;
  const next = () => {
    if (socket.destroyed) return;
    if (i === pieces.length) { done(); return; }
    socket.write(pieces[i++], 'latin1');
    setImmediate(next);
  };
  next();
}

const BODY = '<ListBucketResult>' + 'x'.repeat(3000) + '</ListBucketResult>';
const withLength = `HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`;
const chunked = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n' +
  `12;ext=1\r\n${BODY.slice(0, 18)}\r\n${(BODY.length - 18).toString(16)}\r\n${BODY.slice(18)}\r\n0\r\nX-Trailer: 1\r\n\r\n`;
const continued = `HTTP/1.1 100 Continue\r\n\r\n${withLength}`;

describe('HttpPool', () => {
  let pool;
  afterEach(async () => {
    if (pool) pool.destroy();
    pool = null;
    for (const srv of [...servers]) await srv.close();
  });

  test.each([
    ['content-length', withLength],
    ['chunked, with an extension and trailers', chunked],
    ['100 Continue first', continued],
  ])('reads a %s answer whole, split at any size, and reuses the socket', async (_, answer) => {
    for (const size of [1, 2, 7, 64, 100000]) {
      const srv = await rawServer((head, socket) => dribble(socket, answer, size));
      pool = new HttpPool(4);
      for (let i = 0; i < 3; i++) expect((await pool.fetch(req(srv.port))).toString('latin1')).toBe(BODY);
      expect(srv.connections).toBe(1); // kept alive
      pool.destroy();
      await srv.close();
    }
  });

  // A socket reads every chunk into the same buffer (onread): what the pool keeps of a
  // chunk (a head cut in two, the pieces of a chunked or unframed body) must be a copy, or
  // the next read overwrites it. Bodies of bytes that all differ show any such overwrite.
  test('bodies of varied bytes come out whole however the reads split them; a sink allocates nothing', async () => {
    const body = require('crypto').randomBytes(6000).toString('hex');
    const answers = {
      length: `HTTP/1.1 200 OK\r\nX-Pad: ${'h'.repeat(300)}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      chunked: `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${(5000).toString(16)}\r\n${body.slice(0, 5000)}\r\n${(body.length - 5000).toString(16)}\r\n${body.slice(5000)}\r\n0\r\n\r\n`,
    };
    for (const [kind, answer] of Object.entries(answers)) {
      for (const size of [1, 7, 333, 4096, 100000]) {
        const srv = await rawServer((head, socket) => dribble(socket, answer, size));
        pool = new HttpPool(2);
        expect([kind, size, (await pool.fetch(req(srv.port))).toString('latin1')]).toEqual([kind, size, body]);
        // The same answer to a sink: the pieces it was handed, copied as they came, make the body.
        const pieces = [];
        const before = pool.allocated;
        const res = await pool.fetch({ ...req(srv.port), sink: (chunk, offset) => pieces.push([offset, Buffer.from(chunk)]) });
        expect(res.bytes).toBe(body.length);
        expect(Buffer.concat(pieces.map((p) => p[1])).toString('latin1')).toBe(body);
        pieces.reduce((at, [offset, chunk]) => { expect(offset).toBe(at); return at + chunk.length; }, 0);
        // Nothing was allocated for the sink's bytes (only a head cut across reads is copied).
        expect(pool.allocated - before).toBeLessThan(1000);
        pool.destroy();
        await srv.close();
      }
    }
    // Until the server closes: the body is kept in pieces, each a copy.
    const srv = await rawServer((head, socket) => { socket.write(`HTTP/1.1 200 OK\r\n\r\n`); dribble(socket, body, 1000, () => socket.end()); });
    pool = new HttpPool(2);
    expect((await pool.fetch(req(srv.port))).toString('latin1')).toBe(body);
  });

  test('an answer that runs until the server closes, and Connection: close', async () => {
    const srv = await rawServer((head, socket, n) => {
      if (n === 1) socket.end(`HTTP/1.1 200 OK\r\n\r\n${BODY}`);
      else socket.write(`HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok`);
    });
    pool = new HttpPool(4);
    expect((await pool.fetch(req(srv.port))).toString()).toBe(BODY);
    expect((await pool.fetch(req(srv.port))).toString()).toBe('ok');
    expect((await pool.fetch(req(srv.port))).toString()).toBe('ok');
    expect(srv.connections).toBe(3); // none of them could be kept
    await srv.close();
  });

  test('another status is a FallBack with the status, and the socket stays usable', async () => {
    const srv = await rawServer((head, socket, n) => {
      if (n === 1) socket.write('HTTP/1.1 503 Slow Down\r\nContent-Length: 9\r\n\r\n<Error/>\n');
      else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    pool = new HttpPool(4);
    const err = await pool.fetch(req(srv.port)).catch((e) => e);
    expect(err).toBeInstanceOf(FallBack);
    expect(err.status).toBe(503);
    expect((await pool.fetch(req(srv.port))).toString()).toBe('ok');
    expect(srv.connections).toBe(1);
    await srv.close();
  });

  test('the request goes out as sent: method, path, every header', async () => {
    let seen = null;
    const srv = await rawServer((head, socket) => { seen = head; socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'); });
    pool = new HttpPool(4);
    const r = req(srv.port, '/b/k%20%C3%A9?x=1', { 'x-amz-copy-source': '/src/a%2Bb', 'content-length': '0' });
    r.options.method = 'PUT';
    expect((await pool.fetch(r)).length).toBe(0);
    expect(seen.split('\r\n')).toEqual(['PUT /b/k%20%C3%A9?x=1 HTTP/1.1', `host: 127.0.0.1:${srv.port}`, 'x-amz-copy-source: /src/a%2Bb', 'content-length: 0']);
    // A value with a line break would smuggle a header: refused before anything is sent.
    await expect(pool.fetch(req(srv.port, '/', { 'x-a': 'v\r\nx-b: 1' }))).rejects.toThrow(/line break/);
    await srv.close();
  });

  test('a kept-alive socket the server closed meanwhile: the request goes out again on a new one', async () => {
    const srv = await rawServer((head, socket, n) => {
      if (n === 2) { socket.destroy(); return; } // closed as the second request arrives
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    pool = new HttpPool(4);
    expect((await pool.fetch(req(srv.port))).toString()).toBe('ok');
    expect((await pool.fetch(req(srv.port))).toString()).toBe('ok');
    expect(srv.connections).toBe(2);
    await srv.close();
  });

  test('a connection lost in the middle of an answer, or a new connection refused: FallBack, no second try', async () => {
    let n = 0;
    const srv = await rawServer((head, socket) => { n++; socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort'); setImmediate(() => socket.destroy()); });
    pool = new HttpPool(4);
    await expect(pool.fetch(req(srv.port))).rejects.toBeInstanceOf(FallBack);
    expect(n).toBe(1);
    const port = srv.port;
    await srv.close();
    const err = await pool.fetch(req(port)).catch((e) => e);
    expect(err).toBeInstanceOf(FallBack);
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  test('destroy ends a request at once with its reason and closes its socket', async () => {
    let arrived;
    const serverSide = new Promise((resolve) => { arrived = resolve; });
    const srv = await rawServer((head, socket) => arrived(socket)); // never answers
    pool = new HttpPool(4);
    let call;
    const p = pool.fetch(req(srv.port), (c) => { call = c; });
    const socket = await serverSide; // the request is out
    const closed = new Promise((resolve) => { if (socket.destroyed) resolve(); else socket.once('close', resolve); });
    const reason = new Error('user abort');
    call.destroy(reason);
    await expect(p).rejects.toBe(reason);
    await closed; // the client closed its socket (a test that never closes it times out)
    expect(srv.open).toBe(0);
    await srv.close();
  });

  test('requests beyond the socket limit wait for a free socket; the pool never opens more', async () => {
    const srv = await rawServer((head, socket) => setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'), 5));
    pool = new HttpPool(1); // at least 64 sockets
    const all = await Promise.all(Array.from({ length: 200 }, () => pool.fetch(req(srv.port))));
    expect(all.every((b) => b.toString() === 'ok')).toBe(true);
    expect(srv.connections).toBe(64);
    await srv.close();
  });

  test('a request destroyed while it waits for a socket is never sent', async () => {
    // The server holds every request but the sentinel; once it has all 64 sockets' requests, one
    // of them is answered: a socket comes free, and a destroyed request still queued would go
    // out on it before the sentinel. Waits on events, not on time.
    const paths = [];
    const sockets = new Map();
    let allHeld;
    const held64 = new Promise((resolve) => { allHeld = resolve; });
    const srv = await rawServer((head, socket) => {
      const p = head.split(' ')[1];
      paths.push(p);
      sockets.set(p, socket);
      if (p === '/sentinel') socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      if (paths.length === 64) allHeld();
    });
    pool = new HttpPool(1);
    const held = Array.from({ length: 64 }, (_, i) => pool.fetch(req(srv.port, `/held-${i}`)).catch(() => {}));
    let call;
    const waiting = pool.fetch(req(srv.port, '/destroyed'), (c) => { call = c; });
    const reason = new Error('stop');
    call.destroy(reason);
    await expect(waiting).rejects.toBe(reason);
    await held64;
    sockets.get('/held-0').write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    expect((await pool.fetch(req(srv.port, '/sentinel'))).toString()).toBe('ok');
    expect(paths).not.toContain('/destroyed');
    expect(paths).toHaveLength(65);
    pool.destroy();
    await Promise.all(held);
  });

  test('bytes after an answer: the answer stands, the socket is not used again', async () => {
    const srv = await rawServer((head, socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokJUNK'));
    pool = new HttpPool(4);
    expect((await pool.fetch(req(srv.port))).toString()).toBe('ok');
    expect((await pool.fetch(req(srv.port))).toString()).toBe('ok');
    expect(srv.connections).toBe(2);
    await srv.close();
  });

  test('garbage instead of HTTP, and a bad chunk size, are FallBacks', async () => {
    const srv = await rawServer((head, socket, n) => socket.write(n === 1 ? 'SSH-2.0-OpenSSH\r\n\r\n' : 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'));
    pool = new HttpPool(4);
    await expect(pool.fetch(req(srv.port))).rejects.toThrow(/not an HTTP/);
    await expect(pool.fetch(req(srv.port))).rejects.toThrow(/chunked/);
    await srv.close();
  });

  test('https: the server\'s certificate is verified, by name or by IP address, a chunked answer read, 3 MiB handed to a sink whole', async () => {
    // A self-signed certificate for localhost and 127.0.0.1 (test/fixtures/tls, valid until 2126).
    const dir = path.join(__dirname, '..', 'fixtures', 'tls');
    const cert = fs.readFileSync(path.join(dir, 'cert.pem'));
    // /large: 3 MiB of varied bytes with its length, to a sink (TLS records read into the socket's one buffer).
    const large = require('crypto').randomBytes(3 << 20);
    const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'key.pem')), cert }, (q, r) => {
      if (q.url === '/large') { r.writeHead(200, { 'content-length': large.length }); r.end(large); return; }
      r.writeHead(q.url === '/missing' ? 404 : 200); // no length: chunked
      r.end(BODY);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address();
    const sreq = (hostname, p = '/b') => ({ secure: true, options: { hostname, port, method: 'GET', path: p, headers: { host: `${hostname}:${port}` } } });
    try {
      pool = new HttpPool(4, { tls: { ca: cert } });
      expect((await pool.fetch(sreq('localhost'))).toString()).toBe(BODY);
      expect((await pool.fetch(sreq('127.0.0.1'))).toString()).toBe(BODY);
      expect((await pool.fetch(sreq('localhost'))).toString()).toBe(BODY);
      await expect(pool.fetch(sreq('localhost', '/missing'))).rejects.toMatchObject({ status: 404 });
      const pieces = [];
      const got = await pool.fetch({ ...sreq('localhost', '/large'), sink: (chunk) => pieces.push(Buffer.from(chunk)) });
      expect(got.bytes).toBe(large.length);
      expect(Buffer.concat(pieces).equals(large)).toBe(true);
      expect(pieces.length).toBeGreaterThan(1);
      pool.destroy();
      // Without the test's authority, the self-signed certificate is refused.
      pool = new HttpPool(4);
      const err = await pool.fetch(sreq('localhost')).catch((e) => e);
      expect(err).toBeInstanceOf(FallBack);
      expect(err.message).toMatch(/SELF_SIGNED|CERT/);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('parseHead: status, framing and keep-alive', () => {
    expect(parseHead('HTTP/1.1 200 OK\r\nContent-Length: 12\r\n')).toEqual({ status: 200, length: 12, keepAlive: true });
    expect(parseHead('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 5\r\n')).toEqual({ status: 200, length: -1, keepAlive: true });
    expect(parseHead('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n')).toEqual({ status: 200, length: 1, keepAlive: false });
    expect(parseHead('HTTP/1.0 200 OK\r\nContent-Length: 1\r\n')).toEqual({ status: 200, length: 1, keepAlive: false });
    expect(parseHead('HTTP/1.1 200 OK\r\n')).toEqual({ status: 200, length: -2, keepAlive: false });
    expect(parseHead('HTTP/1.1 204 No Content\r\n')).toEqual({ status: 204, length: 0, keepAlive: true });
    expect(parseHead('HTTP/1.1 200 OK\r\nContent-Length: x\r\n')).toBeNull();
    expect(parseHead('HTTP/1.1 200 OK\r\nContent-Length: -5\r\n')).toBeNull();
    expect(parseHead('HTTP/1.1 200 OK\r\nContent-Length: \r\n')).toBeNull();
    expect(parseHead('HTTP/2 200\r\n')).toBeNull();
  });
});
