'use strict';
// Headless Chromium for tests, driven over the Chrome DevTools protocol on a pipe (no
// WebSocket, no library, no browser download): Debian's chromium package, installed with
// apt-get when /usr/bin/chromium is missing. If it cannot be installed or started, the
// caller's test fails with the reason; it never skips.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawn, execFileSync } = require('child_process');

const CHROMIUM = '/usr/bin/chromium';

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return CHROMIUM;
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`${CHROMIUM} is missing and installing it needs root: run "apt-get install -y chromium" as root`);
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (args) => {
    try {
      execFileSync('apt-get', ['-o', 'DPkg::Lock::Timeout=600', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
    } catch (err) {
      const tail = `${err.stdout || ''}${err.stderr || ''}`.split('\n').slice(-15).join('\n');
      throw new Error(`apt-get ${args.join(' ')} failed (${err.message.split('\n')[0]}):\n${tail}`);
    }
  };
  apt(['update', '-q']);
  apt(['install', '-y', '-q', 'chromium']);
  if (!fs.existsSync(CHROMIUM)) throw new Error(`apt-get install chromium finished but ${CHROMIUM} is not there`);
  return CHROMIUM;
}

// One browser, one page. Every request the page makes is recorded (requests), and so is
// every request its Content-Security-Policy stopped (violations): a blocked request never
// reaches the network log, so both are watched.
class Browser {
  static async launch({ width = 1000, height = 900 } = {}) {
    const exe = ensureChromium();
    const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3blitz-chromium-'));
    const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-extensions', '--mute-audio',
      '--no-default-browser-check', `--user-data-dir=${userDataDir}`, '--remote-debugging-pipe', 'about:blank'];
    const proc = spawn(exe, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    const b = new Browser(proc, userDataDir);
    let stderr = '';
    proc.stderr.on('data', (d) => { stderr = (stderr + d).slice(-8192); });
    const exited = new Promise((resolve) => proc.once('exit', (code, sig) => resolve({ code, sig })));
    b.exited = exited;
    const started = b.send('Browser.getVersion');
    const first = await Promise.race([started, exited.then((e) => ({ exitedEarly: e }))]);
    if (first.exitedEarly) throw new Error(`chromium exited at start (${JSON.stringify(first.exitedEarly)}): ${stderr}`);
    b.version = first.product;
    const { targetId } = await b.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await b.send('Target.attachToTarget', { targetId, flatten: true });
    b.session = sessionId;
    await b.page('Page.enable');
    await b.page('Network.enable');
    await b.page('Runtime.enable');
    await b.page('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    await b.page('Page.addScriptToEvaluateOnNewDocument', {
      source: "window.__violations = []; document.addEventListener('securitypolicyviolation', function (e) { window.__violations.push(e.blockedURI + ' ' + e.violatedDirective); });",
    });
    return b;
  }

  constructor(proc, userDataDir) {
    this.proc = proc;
    this.userDataDir = userDataDir;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Map();
    this.requests = [];
    this.buffer = '';
    this.toBrowser = proc.stdio[3];
    this.fromBrowser = proc.stdio[4];
    this.fromBrowser.on('data', (d) => this._read(d));
    this.on('Network.requestWillBeSent', (p) => this.requests.push(p.request.url));
    proc.once('exit', () => {
      for (const { reject } of this.pending.values()) reject(new Error('chromium exited'));
      this.pending.clear();
    });
  }

  _read(data) {
    this.buffer += data.toString('utf8');
    let i;
    while ((i = this.buffer.indexOf('\0')) >= 0) {
      const msg = JSON.parse(this.buffer.slice(0, i));
      this.buffer = this.buffer.slice(i + 1);
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (!p) continue;
        if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
        else p.resolve(msg.result);
      } else {
        for (const fn of this.listeners.get(msg.method) || []) fn(msg.params, msg.sessionId);
      }
    }
  }

  on(method, fn) {
    if (!this.listeners.has(method)) this.listeners.set(method, []);
    this.listeners.get(method).push(fn);
  }

  once(method) {
    return new Promise((resolve) => {
      const fn = (params) => {
        const list = this.listeners.get(method);
        list.splice(list.indexOf(fn), 1);
        resolve(params);
      };
      this.on(method, fn);
    });
  }

  send(method, params = {}, sessionId) {
    const id = this.nextId++;
    const msg = { id, method, params };
    if (sessionId) msg.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.toBrowser.write(JSON.stringify(msg) + '\0');
    });
  }

  page(method, params) { return this.send(method, params, this.session); }

  async goto(url) {
    const loaded = this.once('Page.loadEventFired');
    const nav = await this.page('Page.navigate', { url });
    if (nav.errorText) throw new Error(`navigation to ${url} failed: ${nav.errorText}`);
    await loaded;
  }

  // The value of an expression in the page (awaited when it is a promise).
  async eval(expression) {
    const r = await this.page('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(`in the page: ${r.exceptionDetails.exception ? r.exceptionDetails.exception.description : r.exceptionDetails.text}`);
    return r.result.value;
  }

  // A real mouse click at the middle of the first element the selector finds.
  async click(selector) {
    const box = await this.eval(`(() => { const e = document.querySelector(${JSON.stringify(selector)}); if (!e) return null;
      e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; })()`);
    if (!box) throw new Error(`nothing in the page matches ${selector}`);
    for (const type of ['mouseMoved', 'mousePressed', 'mouseReleased']) {
      await this.page('Input.dispatchMouseEvent', { type, x: box.x, y: box.y, button: 'left', clickCount: type === 'mouseMoved' ? 0 : 1 });
    }
  }

  // The page from y down, at most maxHeight pixels of it (fullPage: false, the viewport).
  async screenshot(file, { fullPage = true, y = 0, maxHeight = 20000 } = {}) {
    const params = { format: 'png', captureBeyondViewport: fullPage };
    if (fullPage) {
      const { width, height } = await this.eval('({width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight})');
      params.clip = { x: 0, y, width, height: Math.max(1, Math.min(height - y, maxHeight)), scale: 1 };
    }
    const { data } = await this.page('Page.captureScreenshot', params);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, Buffer.from(data, 'base64'));
    return file;
  }

  async close() {
    try { await Promise.race([this.send('Browser.close'), this.exited]); } catch { /* already gone */ }
    if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill('SIGKILL');
    await this.exited;
    // Helpers of the browser may still be writing there a moment after it exits.
    try { fs.rmSync(this.userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); } catch { /* left in tmp */ }
  }
}

module.exports = { Browser, ensureChromium, CHROMIUM };
