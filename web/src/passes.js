// What a compiler does with the program (issue 25) and the same program
// in JAX (issue 26), on the page: the optimise choice, the optimised and
// fusion panes, the picture's kernels as clusters, rematerialisation's
// toggles, and "copy as JAX" with its .py download.  Forward mode's pane
// is forward.js.
//
// Every text is the engine's: the readings (optimized, fusion, forward,
// jax), the fusion's saving and the remat sentence (their JSON members),
// the kernels' DOT.  A pass reading is asked of the engine worker only
// while its tab is shown (pay for what is read), for the read whose six
// readings are on screen; a newer read drops it.  The choices (optimise,
// rematerialised names or auto, the direction, kernels) go into the read
// itself: the engine plans, lowers and draws with them.
//
// The automation contract adds [data-reading=optimized|fusion|forward]
// (the engine's text exactly, once the tab was shown for the readings on
// screen), [data-reading=fusion-saving] (the fusion JSON's sentence) and
// [data-reading=remat-sentence] (the remat JSON's).
import { $, page, paneEl, readingEl, say, updateBusy } from './page-state.js';
import { PASS_TABS } from './state.js';
import { askEngine, scheduleRead } from './engine-client.js';
import { applySelection } from './selection.js';
import { longReadings } from './reading-panes.js';
import { fillFolds } from './readings.js';
import { rovingStop } from './reading-keys.js';
import { download } from './downloads.js';
import { fileStem } from './drafts.js';
import { createForward } from './forward.js';

const NAMES = { optimized: 'optimised', fusion: 'fusion', forward: 'forward' };

export function createPasses() {
  const state = {
    current: null,     // {id, passes} of the readings on screen (the last that read)
    refused: false,    // the program on screen does not read
    shownOf: {},       // pass reading -> the read id its pane shows
    asking: new Map(), // pass reading -> the read id asked for
    texts: {},         // pass reading -> the text its pane shows
  };
  const forward = createForward({ choose });

  function choose(fields) {
    Object.assign(page.chosen, fields);
    applyPassChoices();
    scheduleRead();
  }

  function shown(name) { return page.chosen.tab === name; }

  // Puts an answer of the engine worker into its pane.
  function put(reading, of, m) {
    const el = readingEl(reading);
    if (m.long) longReadings.show(el, { ...m.long, of, reading, text: m.text });
    else {
      longReadings.drop(el);
      el.innerHTML = m.html.join('');
      fillFolds(el, m.text);
    }
    state.shownOf[reading] = of;
    state.texts[reading] = m.text;
    if (reading === 'forward') forward.show(el, m.forward, of);
    if (reading === 'fusion') $('#fusion-saving').textContent = state.current?.passes?.fusion ?? '';
    rovingStop(el, page.selected);
    paneEl(reading).classList.remove('teach-stale', 'pass-old');
    paneEl(reading).querySelector('[data-pass-copy]').disabled = false;
    applySelection();
  }

  function busy() {
    page.work.passes = state.asking.size > 0;
    updateBusy();
  }

  // Asks for each shown pass reading its pane does not show yet.
  function refresh() {
    const cur = state.current;
    if (!cur || state.refused || page.work.fatal) return;
    for (const reading of PASS_TABS) {
      if (!shown(reading) || state.shownOf[reading] === cur.id || state.asking.get(reading) === cur.id) continue;
      state.asking.set(reading, cur.id);
      askEngine('pass', { pass: { of: cur.id, reading } }).then((m) => {
        if (m.gone || state.current?.id !== cur.id) return;   // a newer read: asked again when it is shown
        put(reading, cur.id, m);
      }, (error) => {
        if (state.current?.id === cur.id) readingEl(reading).textContent = `the ${NAMES[reading]} reading could not be made: ${error?.message || error}`;
      }).finally(() => {
        if (state.asking.get(reading) === cur.id) state.asking.delete(reading);
        busy();
      });
    }
    busy();
  }

  // The JAX program of the readings on screen, asked when wanted.
  function jaxText() {
    if (!state.current || state.refused) return Promise.reject(new Error('no current reading: the program does not read'));
    const of = state.current.id;
    return askEngine('pass', { pass: { of, reading: 'jax' } }).then((m) => {
      if (m.gone || state.current?.id !== of) throw new Error('the program changed meanwhile; try again');
      return m.text;
    });
  }

  const stem = () => fileStem(page.drafts.get(page.drafts.current) || { name: '', program: page.chosen.program });

  // The remat toggles: one per statement the engine can rematerialise
  // (JSON remat.candidates, named by the statement whose last assignment
  // it is: what --remat takes), pressed when chosen (with auto: when the
  // engine's pick has it), and the engine's sentence.
  function showRemat() {
    const remat = state.current?.passes?.remat;
    const { list, nodes } = page.names;
    const last = new Map();   // name -> the node of its last assignment
    list.forEach((n, k) => last.set(n, nodes[k]));
    const nameOf = (node) => { for (const [n, at] of last) if (at === node) return n; return null; };
    const auto = page.chosen.remat === 'auto';
    const chosenNames = auto ? [] : page.chosen.remat;
    const candidates = (remat?.candidates || []).map(nameOf).filter((n) => n !== null);
    const picked = new Set((remat?.chosen || []).map(nameOf));
    const names = [...new Set([...candidates, ...chosenNames])];
    const box = $('#remat-list');
    box.replaceChildren(...names.map((n) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.remat = n;
      b.textContent = n;
      const on = auto ? picked.has(n) : chosenNames.includes(n);
      b.setAttribute('aria-pressed', String(on));
      b.setAttribute('aria-label', `rematerialise ${n}`);
      b.title = !candidates.includes(n) ? `${n} cannot be rematerialised now: passed over`
        : on ? `${n} is freed after the forward pass and computed again for the gradient` : `free ${n} after the forward pass and compute it again for the gradient`;
      return b;
    }));
    $('#remat-auto').setAttribute('aria-pressed', String(auto));
    $('#remat-sentence').textContent = remat?.sentence ?? '';
  }

  function toggleRemat(name) {
    const c = page.chosen;
    // From auto, the toggles start from what auto picked.
    const from = c.remat === 'auto' ? [...$('#remat-list').querySelectorAll('[aria-pressed="true"]')].map((b) => b.dataset.remat) : c.remat;
    choose({ remat: from.includes(name) ? from.filter((n) => n !== name) : [...from, name] });
  }

  async function copyJax(button) {
    if (button.disabled) return;
    try {
      const text = await jaxText();
      await navigator.clipboard.writeText(text);
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      say(`copied the program in JAX: ${lines} line${lines === 1 ? '' : 's'} of Python.`);
    } catch (error) {
      say(`the program in JAX could not be copied (${error?.message || 'the clipboard is not available'}).`);
    }
  }

  function wire() {
    $('#optimize').addEventListener('change', (e) => choose({ optimize: e.target.checked }));
    // the kernels and the tangent band are two pictures: one at a time
    $('#kernels-toggle').addEventListener('click', () => choose({ kernels: !page.chosen.kernels, tangents: false }));
    $('#tangents-toggle').addEventListener('click', () => choose({ tangents: !page.chosen.tangents, kernels: false }));
    $('#remat-auto').addEventListener('click', () => choose({ remat: page.chosen.remat === 'auto' ? [] : 'auto' }));
    $('#remat-list').addEventListener('click', (e) => {
      const b = e.target instanceof Element ? e.target.closest('[data-remat]') : null;
      if (b) toggleRemat(b.dataset.remat);
    });
    $('#copy-jax').addEventListener('click', (e) => copyJax(e.currentTarget));
    $('#download-jax').addEventListener('click', async (e) => {
      if (e.currentTarget.disabled) return;
      const name = `${stem()}.py`;
      try {
        download(name, 'text/x-python', await jaxText());
      } catch (error) {
        say(`${name} could not be made: ${error?.message || error}`);
      }
    });
    for (const b of document.querySelectorAll('[data-pass-copy]')) {
      b.addEventListener('click', async () => {
        const r = b.dataset.passCopy, text = state.texts[r];
        if (b.disabled || typeof text !== 'string') return;
        try {
          await navigator.clipboard.writeText(text);
          const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
          say(`copied the ${NAMES[r]} reading: ${lines} line${lines === 1 ? '' : 's'}.`);
        } catch (error) {
          say(`the ${NAMES[r]} reading could not be copied (${error?.message || 'the clipboard is not available'}); select its text instead.`);
        }
      });
    }
    forward.wire();
  }

  // The pass choices of page.chosen shown in their controls.
  function applyPassChoices() {
    const c = page.chosen;
    $('#optimize').checked = c.optimize;
    $('#kernels-toggle').setAttribute('aria-pressed', String(c.kernels));
    $('#tangents-toggle').setAttribute('aria-pressed', String(c.tangents));
    showRemat();
    forward.applyChoice(c.direction);
  }

  return {
    wire,
    applyPassChoices,
    // The engine's result was put on the page (reading-panes.js showResult).
    resultShown(msg) {
      state.refused = msg.status !== 0;
      if (!state.refused) state.current = { id: msg.id, passes: msg.passes };
      // A refused program keeps the last reading that did, marked; one
      // of an older read is dimmed until the newer one comes.
      for (const reading of PASS_TABS) {
        const had = state.shownOf[reading] !== undefined;
        paneEl(reading).classList.toggle('teach-stale', had && state.refused);
        paneEl(reading).classList.toggle('pass-old', had && !state.refused && state.shownOf[reading] !== state.current?.id);
      }
      const why = page.work.fatal ? 'the engine is not running' : state.refused || !state.current ? 'no current reading: the program does not read' : '';
      for (const id of ['#copy-jax', '#download-jax']) {
        const b = $(id);
        b.disabled = why !== '';
        b.title = why ? `not now: ${why}` : b.dataset.title;
      }
      $('.jax-tools .why').textContent = why && state.current ? `(${why})` : '';
      if (!state.refused) applyPassChoices();
      refresh();
    },
    viewChanged: refresh,
    // Escape, or a new selection elsewhere: forward mode's tangent
    // highlight goes.
    clearLocal: () => forward.clearTangent(),
  };
}
