// Bundles the static page into one self-contained folder.
//
//   node build-site.mjs --src web/ --samples resources/samples --npm BUILD/web/npm
//        --engine BUILD/web/tp-engine.mjs --language docs/language.md
//        --lessons resources/lessons --out BUILD/web/site --stamp FILE
//
// The folder holds index.html, style.css, app.js (the page with CodeMirror),
// two module workers (engine-worker.js; graph-worker.js with graphviz in
// wasm inlined), the engine's ES module (tp-engine.js), tp-engine.wasm, the
// language reference (reference.html, from docs/language.md), the course
// (resources/lessons/*.lesson, in app.js as __TP_LESSONS__, and each file
// beside it as lessons-NN-NAME.lesson, for a teacher to download) and the
// service worker sw.js that keeps them all for offline use.
// Nothing refers to another origin: every byte the page needs is in here.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { readSamples } from './samples-manifest.mjs';
import { referenceHtml } from './src/reference-page.mjs';

const args = {};
for (let i = 2; i < process.argv.length; i += 2)
  args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
for (const k of ['src', 'samples', 'npm', 'engine', 'language', 'lessons', 'out', 'stamp']) {
  if (!args[k]) throw new Error(`build-site.mjs: --${k} is required`);
  args[k] = resolve(args[k]);
}

const require = createRequire(join(args.npm, 'node_modules', 'noop.js'));
const esbuild = require('esbuild');

const src = join(args.src, 'src');
const out = args.out;
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// The samples, text and all, become a constant of the page; their
// titles and choices come from the manifest the desktop app reads too.
const samples = readSamples(args.samples).map((s) => ({
  id: s.id, title: s.title, target: s.target, observe: s.observe,
  teaching: s.teaching,
  program: readFileSync(join(args.samples, s.file), 'utf8'),
}));
// The course, in order: its files' names sort as the lessons go.
const lessons = readdirSync(args.lessons).filter((f) => f.endsWith('.lesson')).sort()
  .map((f) => ({ id: f.replace(/\.lesson$/, ''), file: f, text: readFileSync(join(args.lessons, f), 'utf8') }));
const version = JSON.parse(readFileSync(join(args.src, 'package.json'), 'utf8')).version;

const common = {
  bundle: true,
  format: 'esm',
  target: ['es2022'],
  minify: true,
  legalComments: 'eof',
  logLevel: 'warning',
  nodePaths: [join(args.npm, 'node_modules')],
  absWorkingDir: args.src,
  define: {
    __TP_SAMPLES__: JSON.stringify(samples),
    __TP_LESSONS__: JSON.stringify(lessons.map(({ id, text }) => ({ id, text }))),
    __TP_VERSION__: JSON.stringify(version),
  },
};

await esbuild.build({
  ...common,
  entryPoints: { app: join(src, 'main.js') },
  outdir: out,
});
await esbuild.build({
  ...common,
  entryPoints: { 'engine-worker': join(src, 'engine-worker.js') },
  outdir: out,
  external: ['./tp-engine.js'],
});
await esbuild.build({
  ...common,
  entryPoints: { 'graph-worker': join(src, 'graph-worker.js') },
  outdir: out,
});

// .js, not .mjs: every static server sends .js as JavaScript, and a module
// script (or module worker) with another MIME type is refused.
copyFileSync(args.engine, join(out, 'tp-engine.js'));
copyFileSync(join(dirname(args.engine), basename(args.engine, '.mjs') + '.wasm'),
             join(out, 'tp-engine.wasm'));
copyFileSync(join(src, 'style.css'), join(out, 'style.css'));
writeFileSync(join(out, 'index.html'),
              readFileSync(join(src, 'index.html'), 'utf8').replaceAll('@VERSION@', version));
for (const l of lessons) writeFileSync(join(out, `lessons-${l.file}`), l.text);
// The language reference, from docs/language.md (reference-page.mjs).
writeFileSync(join(out, 'reference.html'), referenceHtml(readFileSync(args.language, 'utf8'), version));

// The service worker last: its cache is named after a hash of every other
// file of the site (names and bytes), so a build that changes any of them
// is a new cache, and it lists them all to keep.
const files = readdirSync(out).sort();
const hash = createHash('sha256');
for (const f of files) hash.update(f).update('\0').update(readFileSync(join(out, f))).update('\0');
await esbuild.build({
  ...common,
  format: 'iife',
  entryPoints: { sw: join(src, 'sw.js') },
  outdir: out,
  define: {
    __TP_CACHE__: JSON.stringify(`topos-playground-${hash.digest('hex').slice(0, 16)}`),
    __TP_FILES__: JSON.stringify(['./', ...files]),
  },
});
writeFileSync(args.stamp, '');
