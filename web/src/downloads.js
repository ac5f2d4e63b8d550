// Downloads and copies: each reading's exact text, the picture's SVG, the
// engine's whole JSON, the program as a .tape; off, with the reason beside
// them, when there is nothing current to give.
import { $, page, say } from './page-state.js';
import { fileStem } from './drafts.js';
import { standaloneSvg } from './picture-view.js';
import { engineJson } from './engine-client.js';
import { pictureProblem, pictureSvg } from './picture-pane.js';

const READING_NAMES = { spec: 'spec', derivative: 'derivative', plan: 'plan', stablehlo: 'StableHLO', values: 'values', picture: 'picture (SVG)' };

export function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// Files are named after the draft (its name, else its first comment).
function stem() {
  return fileStem(page.drafts.get(page.drafts.current) || { name: '', program: page.chosen.program });
}

// Why a download (or copy) of the readings cannot be had now, or ''.
function readingsUnavailable() {
  if (page.work.fatal) return 'the engine is not running';
  if (page.shown.text === null) return 'no reading yet';
  if (!page.shown.ok) return 'no current reading: the program does not read';
  return '';
}
function pictureUnavailable() {
  return readingsUnavailable() || pictureProblem();
}

function setAvailable(button, why) {
  button.disabled = why !== '';
  button.title = why ? `not now: ${why}` : button.dataset.title || '';
  const note = button.nextElementSibling;
  if (note?.classList.contains('why')) note.textContent = why ? `(${why})` : '';
}

export function updateDownloads() {
  const why = readingsUnavailable();
  setAvailable($('#download-mlir'), why || (page.shown.text.stablehlo ? '' : 'no StableHLO for this program'));
  setAvailable($('#download-svg'), pictureUnavailable());
  setAvailable($('#download-json'), why);
  for (const b of document.querySelectorAll('button[data-copy]'))
    setAvailable(b, b.dataset.copy === 'picture' ? pictureUnavailable() : why);
}

export function saveTape() {
  download(`${stem()}.tape`, 'text/plain', page.chosen.program);
}

export function wireDownloads() {
  $('#download-json').onclick = async () => {
    if (readingsUnavailable()) return;
    const name = `${stem()}.json`;
    try {
      download(name, 'application/json', await engineJson());
    } catch (error) {
      say(`${name} could not be made: ${error?.message || error}`);
    }
  };
  // Each reading's exact text (the picture: its SVG) to the clipboard.
  for (const b of document.querySelectorAll('button[data-copy]')) {
    const r = b.dataset.copy;
    b.onclick = async () => {
      const text = r === 'picture' ? pictureSvg() : page.shown.text?.[r];
      if (b.disabled || typeof text !== 'string') return;
      try {
        await navigator.clipboard.writeText(text);
        const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
        say(`copied the ${READING_NAMES[r]} reading: ${lines} line${lines === 1 ? '' : 's'}.`);
      } catch (error) {
        say(`the ${READING_NAMES[r]} reading could not be copied (${error?.message || 'the clipboard is not available'}); select its text instead.`);
      }
    };
  }
  $('#download-svg').onclick = () => {
    if (!pictureUnavailable()) download(`${stem()}.svg`, 'image/svg+xml', standaloneSvg(pictureSvg()));
  };
  $('#download-mlir').onclick = () => {
    if (!readingsUnavailable() && page.shown.text.stablehlo) download(`${stem()}.mlir`, 'text/plain', page.shown.text.stablehlo);
  };
  $('#save').onclick = saveTape;
}
