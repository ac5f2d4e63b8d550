// A lesson's text as DOM, built from the engine's spans and blocks
// (docs/lessons.md, The JSON): an element chosen by the span's kind, the
// characters put in as text (textContent), never as markup, so whatever
// a lesson writes (`<script>`, `<img onerror>`) shows as the characters
// written.  A link is an <a> only when the engine gave it an http(s)
// address, and it opens in a new tab, without the page as its opener.

const SAFE_URL = /^https?:\/\/[A-Za-z0-9]/;

function span(s) {
  if (s.kind === 'emphasis' || s.kind === 'code') {
    const el = document.createElement(s.kind === 'emphasis' ? 'em' : 'code');
    el.textContent = s.text;
    return el;
  }
  if (s.kind === 'link' && typeof s.url === 'string' && SAFE_URL.test(s.url)) {
    const a = document.createElement('a');
    a.href = s.url;
    a.target = '_blank';
    a.rel = 'noopener noreferrer';
    a.textContent = s.text;
    return a;
  }
  return document.createTextNode(String(s.text ?? ''));
}

// A message (TEXT: {line, source, spans}) into element el, in place of
// what el held.
export function putMessage(el, text) {
  el.replaceChildren(...(text?.spans || []).map(span));
  return el;
}

export function message(tag, text, className) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return putMessage(el, text);
}

// The blocks of the lesson's text (paragraphs, code blocks, lists).
export function blocks(list) {
  const out = [];
  for (const b of list || []) {
    if (b.kind === 'paragraph') out.push(message('p', b.text));
    else if (b.kind === 'code') {
      const pre = document.createElement('pre');
      const code = document.createElement('code');
      code.textContent = b.code;
      pre.append(code);
      out.push(pre);
    } else if (b.kind === 'list') {
      const l = document.createElement(b.ordered ? 'ol' : 'ul');
      if (b.ordered && b.first !== 1) l.start = b.first;
      for (const item of b.items || []) {
        const li = document.createElement('li');
        li.append(...blocks(item));
        l.append(li);
      }
      out.push(l);
    }
  }
  return out;
}
