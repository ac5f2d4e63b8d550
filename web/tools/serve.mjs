// A small static file server for the built page (and the page tests).
//
//   node web/tools/serve.mjs DIR [PORT]      (PORT 0 picks a free one)
//
// Serves DIR on 127.0.0.1 only, with the MIME types browsers need (wasm
// must be application/wasm for streaming compilation), and prints the URL.
// Any other static server works too; this one exists so that trying the
// page needs nothing but node.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.tape': 'text/plain; charset=utf-8',
};

export function serve(dir, port = 0, { log = () => {} } = {}) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let path;
    try {
      path = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = normalize(join(root, path));
    let st = null;
    if (file === root || file.startsWith(root + sep)) {
      try { st = statSync(file); } catch { st = null; }
    }
    log(req.method, path, st?.isFile() ? 200 : 404);
    if (!st?.isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[extname(file)] || 'application/octet-stream',
      'content-length': st.size,
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(port, '127.0.0.1', () => ok(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, port] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node serve.mjs DIR [PORT]');
    process.exit(2);
  }
  const server = await serve(dir, Number(port ?? 8000));
  console.log(`serving ${resolve(dir)} at http://127.0.0.1:${server.address().port}/  (Ctrl-C stops)`);
}
