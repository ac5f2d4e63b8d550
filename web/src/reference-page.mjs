// The site's language reference (reference.html), made at build time by
// build-site.mjs from docs/language.md's language part ("## The
// language", up to the next "## " heading), so the page and the document
// never say two things.  The Markdown it reads is the document's own
// plain subset: headings, paragraphs, "- " lists (their lines indented by
// two spaces continue an item), fenced code, pipe tables, `code`,
// ``code with a backtick``, **bold**.  Anything else would be shown as
// its text, escaped.

const escape = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

// Inline markup: code spans first (their text is kept as it is), then
// bold in what is left.
function inline(text) {
  let out = '';
  let at = 0;
  const code = /``\s?(.+?)\s?``|`([^`]+)`/g;
  for (let m; (m = code.exec(text));) {
    out += prose(text.slice(at, m.index)) + `<code>${escape(m[1] ?? m[2])}</code>`;
    at = m.index + m[0].length;
  }
  return out + prose(text.slice(at));
}
const prose = (s) => escape(s).replace(/\*\*(.+?)\*\*/g, '<strong>$1</strong>');

// A table row's cells: split at the pipes outside code spans.
function cells(row) {
  const parts = [];
  let cell = '', ticks = 0;
  for (const ch of row.trim().replace(/^\||\|$/g, '')) {
    if (ch === '`') ticks ^= 1;
    if (ch === '|' && !ticks) { parts.push(cell.trim()); cell = ''; } else cell += ch;
  }
  parts.push(cell.trim());
  return parts;
}

const slug = (s) => s.toLowerCase().replace(/`/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

// The language part of language.md, as HTML: {title, toc: [[id, text]], html}.
export function languagePart(markdown) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l === '## The language');
  if (start < 0) throw new Error('docs/language.md has no "## The language" part');
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end < 0) end = lines.length;
  const body = lines.slice(start + 1, end);
  const html = [], toc = [];
  for (let i = 0; i < body.length;) {
    const line = body[i];
    if (line.trim() === '') { i++; continue; }
    if (line.startsWith('### ')) {
      const text = line.slice(4).trim(), id = slug(text);
      toc.push([id, text]);
      html.push(`<h2 id="${id}">${inline(text)}</h2>`);
      i++;
    } else if (line.startsWith('```')) {
      const code = [];
      for (i++; i < body.length && !body[i].startsWith('```'); i++) code.push(body[i]);
      i++;
      html.push(`<pre><code>${escape(code.join('\n'))}</code></pre>`);
    } else if (line.startsWith('|')) {
      const rows = [];
      for (; i < body.length && body[i].startsWith('|'); i++) rows.push(cells(body[i]));
      const [head, , ...rest] = rows;
      html.push('<table><thead><tr>' + head.map((c) => `<th>${inline(c)}</th>`).join('') + '</tr></thead><tbody>'
        + rest.map((r) => '<tr>' + r.map((c) => `<td>${inline(c)}</td>`).join('') + '</tr>').join('') + '</tbody></table>');
    } else if (line.startsWith('- ')) {
      const items = [];
      for (; i < body.length && (body[i].startsWith('- ') || body[i].startsWith('  ')); i++) {
        if (body[i].startsWith('- ')) items.push(body[i].slice(2));
        else items[items.length - 1] += ' ' + body[i].trim();
      }
      html.push('<ul>' + items.map((t) => `<li>${inline(t)}</li>`).join('') + '</ul>');
    } else {
      const para = [];
      for (; i < body.length && body[i].trim() !== '' && !/^(###? |```|\||- )/.test(body[i]); i++) para.push(body[i].trim());
      html.push(`<p>${inline(para.join(' '))}</p>`);
    }
  }
  return { toc, html: html.join('\n') };
}

// The whole page: the site's own style, the same strict content policy,
// a way back to the playground, the contents, the language part.
export function referenceHtml(markdown, version) {
  const { toc, html } = languagePart(markdown);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'">
<title>the tape language: topos playground</title>
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%23245e8f'/%3E%3Cpath d='M4 4h8M8 4v8' stroke='white' stroke-width='2'/%3E%3C/svg%3E">
<link rel="stylesheet" href="style.css">
</head>
<body class="reference" data-state="ready">
<header class="top">
  <h1><span class="brand">topos</span> playground: the tape language</h1>
  <p class="tagline"><a href="./">← back to the playground</a></p>
</header>
<main class="reference-main">
<nav aria-label="contents"><p>This is the language part of the engine's reference (docs/language.md in the source tree), as this build of the page reads it.</p>
<ol>${toc.map(([id, text]) => `<li><a href="#${id}">${inline(text)}</a></li>`).join('')}</ol></nav>
<article>
${html}
</article>
</main>
<footer><span>topos playground ${escape(version)}</span></footer>
</body>
</html>
`;
}
