// The samples manifest, resources/samples/samples.xml, read at build time
// (build-site.mjs) and by the page's tests: the desktop app reads the same
// file from its resources.  The file is ours and regular (one <sample>
// element with its attributes and one <title> each), so a pattern reads it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const unescape = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>')
  .replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

// [{id, title, file, target, observe, teaching}] in menu order; an empty
// target or observe is no choice.
export function readSamples(samplesDir) {
  const xml = readFileSync(join(samplesDir, 'samples.xml'), 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '');
  const samples = [];
  for (const m of xml.matchAll(/<sample\b([^>]*)>([\s\S]*?)<\/sample>/g)) {
    const attrs = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)]
      .map(([, k, v]) => [k, unescape(v)]));
    const title = /<title>([^<]*)<\/title>/.exec(m[2]);
    if (!attrs.id || !title) throw new Error(`samples.xml: a sample without id or title: ${m[0]}`);
    samples.push({
      id: attrs.id,
      title: unescape(title[1].trim()),
      file: `${attrs.id}.tape`,
      target: attrs.target ?? '',
      observe: attrs.observe ?? '',
      teaching: attrs.teaching === 'true',
    });
  }
  if (samples.length === 0) throw new Error('samples.xml: no samples');
  return samples;
}
