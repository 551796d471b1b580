'use strict';
// The lean ListObjectsV2 path: one signed HTTP request per page on a keep-alive pool and
// an indexOf parser, instead of the SDK's middleware stack and XML deserializer, which
// cost several times more CPU than the page is worth. Credentials and region still come
// from the SDK client. Anything but a 200 (errors, throttling, redirects) and any network
// failure is handed back to the caller, which then asks the SDK path, so error handling,
// retries and messages stay the SDK's.
const http = require('http');
const https = require('https');
const { Signer } = require('./sigv4');
const { parseListObjectsV2 } = require('./list-parser');

class FallBack extends Error {
  constructor(reason, status) { super(reason); this.status = status; }
}

class FastList {
  /** @param o {bucket, endpointUrl, forcePathStyle, requestPayer, maxSockets, client: () => S3Client} */
  constructor(o) {
    this.o = o;
    this.signer = new Signer('s3');
    this.inflight = new Set();
    this.watched = new WeakSet();
    const agentOpts = { keepAlive: true, maxSockets: Math.max(64, (o.maxSockets || 100) + 16), scheduling: 'lifo' };
    this.httpAgent = new http.Agent(agentOpts);
    this.httpsAgent = new https.Agent(agentOpts);
  }

  // Where to send the request, or null when only the SDK can say (ARNs, access points).
  _target(region, key) {
    const { bucket, endpointUrl, forcePathStyle } = this.o;
    if (bucket.includes(':')) return null;
    const obj = key === null || key === undefined ? '' : `/${key}`;
    if (endpointUrl) {
      const u = new URL(endpointUrl);
      const base = u.pathname.replace(/\/$/, '');
      if (forcePathStyle !== false) return { url: u, host: u.host, path: `${base}/${bucket}${obj}` };
      return { url: u, host: `${bucket}.${u.host}`, path: `${base}${obj || '/'}` };
    }
    const host = `s3.${region}.amazonaws.com`;
    const u = new URL(`https://${host}`);
    if (bucket.includes('.')) return { url: u, host, path: `/${bucket}${obj}` };
    return { url: u, host: `${bucket}.${host}`, path: obj || '/' };
  }

  async listPage({ prefix, startAfter, continuationToken, maxKeys, delimiter, signal }) {
    const query = [['list-type', '2'], ['encoding-type', 'url']];
    if (prefix) query.push(['prefix', prefix]);
    if (delimiter) query.push(['delimiter', delimiter]);
    if (continuationToken) query.push(['continuation-token', continuationToken]);
    else if (startAfter) query.push(['start-after', startAfter]);
    if (maxKeys) query.push(['max-keys', String(maxKeys)]);
    const extra = this.o.requestPayer ? { 'x-amz-request-payer': 'requester' } : {};
    const body = await this.request('GET', null, query, extra, signal);
    return parseListObjectsV2(body);
  }

  // One CopyObject with headers only (no REPLACE): the response's ETag, or FallBack.
  async copyObject(key, headers, signal) {
    const body = (await this.request('PUT', key, [], headers, signal)).toString('utf8');
    // A 200 can carry an error in its body: let the SDK path see it.
    const m = /<CopyObjectResult[^>]*>[\s\S]*?<ETag>([^<]+)<\/ETag>/.exec(body);
    if (!m || body.indexOf('<Error>') >= 0) throw new FallBack('CopyObject answered without a result');
    return m[1].replace(/&quot;|&#34;/g, '"');
  }

  async request(method, key, query, headers, signal) {
    const client = this.o.client();
    const [credentials, region] = await Promise.all([client.config.credentials(), client.config.region()]);
    const target = this._target(region, key);
    if (!target) throw new FallBack('address only the SDK can resolve');
    const signed = this.signer.sign({ method, host: target.host, path: target.path, query, headers, credentials, region });
    return this._send(method, target, signed, signal);
  }

  _send(method, target, signed, signal) {
    const secure = target.url.protocol === 'https:';
    return new Promise((resolve, reject) => {
      const req = (secure ? https : http).request({
        protocol: target.url.protocol,
        hostname: target.host === target.url.host ? target.url.hostname : target.host.replace(/:\d+$/, ''),
        port: target.url.port || (secure ? 443 : 80),
        method,
        path: signed.path,
        headers: { ...signed.headers, host: target.host },
        agent: secure ? this.httpsAgent : this.httpAgent,
      }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new FallBack(`HTTP ${res.statusCode}`, res.statusCode));
          const len = Number(res.headers['content-length']);
          const buf = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
          if (len && buf.length !== len) return reject(new FallBack('truncated response'));
          resolve(buf);
        });
      });
      req.setTimeout(120000, () => req.destroy(new FallBack('timeout')));
      req.on('error', (err) => reject(signal && signal.aborted ? (signal.reason || err) : new FallBack(err.code || err.message)));
      // One abort listener per signal for all requests: thousands of listeners on one
      // EventTarget make every add and remove slow.
      if (signal) {
        if (signal.aborted) { req.destroy(signal.reason); return; }
        this._watchSignal(signal);
        this.inflight.add(req);
        req.on('close', () => this.inflight.delete(req));
      }
      if (method === 'PUT') req.setHeader('content-length', '0');
      req.end();
    });
  }

  _watchSignal(signal) {
    if (this.watched.has(signal)) return;
    this.watched.add(signal);
    signal.addEventListener('abort', () => { for (const req of this.inflight) req.destroy(signal.reason); }, { once: true });
  }

  destroy() {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

module.exports = { FastList, FallBack };
