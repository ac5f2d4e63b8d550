// The teaching panes: the check tab, the explanation of the selected (or
// hovered) node, the memory chart, the step-through and training.  Each
// shows a fact of the engine's JSON (picked out in the engine worker by
// teach-facts.js) or of its training; the page calls in when a reading
// arrives, the selection or the picture changes, or the program changes.
import { nodeButton } from './node-link.js';
import { createMemoryChart } from './memory.js';
import { createStepper } from './steps.js';
import { createTrain } from './train.js';
import { unpack } from './teach-facts.js';

// The check's outcome (JSON check.outcome) as an icon and words: never
// colour alone.
const OUTCOMES = {
  agree: ['✓', 'agree', 'the gradients agree with finite differences'],
  differ: ['✗', 'differ', 'a gradient differs from finite differences'],
  nonfinite: ['⚠', 'non-finite', 'a gradient or the target is not finite'],
  unchecked: ['○', 'unchecked', 'nothing was checked'],
};

export function createTeach(page) {
  const $ = (id) => document.getElementById(id);
  const chart = createMemoryChart(document.querySelector('[data-reading="memory"]'), { select: page.select, nameOf: page.nameOf });
  const stepper = createStepper(page, chart, () => drawChart());
  const train = createTrain(page);
  let facts = null;       // the last reading that read
  let hovered = null;     // the node under the pointer, or null
  let announced = null;   // the node whose sentence was last announced
  let chartWanted = false; // the chart of `facts` is not drawn yet

  // The chart is drawn only where it is seen (its tab, or the
  // step-through's cursor), as the readings' markup is.
  function drawChart(reselect = true) {
    if (!chartWanted || !facts) return;
    if (!page.shown('memory') && !stepper.open) return;
    chartWanted = false;
    chart.show(facts.memorySvg, facts.memory);
    if (reselect) {
      page.reselect();   // light the selected node's bar
      page.reveal('memory');   // and bring it into view
    }
  }

  function showCheck(check, text) {
    const verdict = $('verdict');
    const [icon, word, fallback] = OUTCOMES[check?.outcome] || ['○', 'no verdict', 'the program does not read'];
    verdict.dataset.outcome = check?.outcome || '';
    verdict.replaceChildren();
    const i = document.createElement('span');
    i.className = 'verdict-icon';
    i.setAttribute('aria-hidden', 'true');
    i.textContent = icon;
    const w = document.createElement('strong');
    w.className = 'verdict-word';
    w.textContent = word;
    verdict.append(i, w, `: ${check?.verdict || fallback}`);
    const nf = check?.nonfinite;
    const born = $('nonfinite');
    born.hidden = !nf;
    if (nf) {
      const b = nodeButton(nf.node, nf.op);
      const at = nf.element.length ? `, element [${nf.element.join(', ')}]` : '';
      const later = nf.inherited_by ? `; ${nf.inherited_by} later node${nf.inherited_by === 1 ? ' inherits' : 's inherit'} it` : '';
      born.replaceChildren('a non-finite value is born at ', b, `${at}: ${nf.value}${later}`);
    }
    document.querySelector('[data-reading="check"]').textContent = text;
  }

  // The explanation line: the hovered node's sentence, else the selected
  // node's (JSON explain[N]).  Only a change of the selection is announced
  // (a polite live region apart from the line), not a re-read or a hover.
  function showExplanation() {
    const node = hovered ?? page.selected;
    const line = $('explain-line');
    const text = facts && node !== null ? unpack(facts.explain, node) : undefined;
    line.textContent = text ?? '';
    line.dataset.explains = node === null || text === undefined ? '' : String(node);
    line.classList.toggle('hovering', hovered !== null && text !== undefined);
    const sel = page.selected;
    if (sel !== announced) {
      announced = sel;
      const said = facts && sel !== null ? unpack(facts.explain, sel) : undefined;
      // the engine's line ("5 Mul: error [] * error [] gives [], ..."), as shown
      $('explain-announce').textContent = said ?? '';
    }
  }

  // Hovering a line, an operand, a picture node or a bar explains it.
  const panes = document.querySelector('.panes');
  panes.addEventListener('mouseover', (e) => {
    const hit = e.target instanceof Element ? e.target.closest('[data-ref], [data-node]') : null;
    const node = hit && hit.closest('[data-reading]') ? Number(hit.dataset.ref ?? hit.dataset.node) : null;
    if (node === hovered) return;
    hovered = node;
    showExplanation();
  });
  panes.addEventListener('mouseleave', () => { hovered = null; showExplanation(); });

  return {
    // A new reading: msg.teach, or (refused) keep the last one, marked.
    show(next, refused) {
      for (const p of ['check', 'memory']) $(`pane-${p}`).classList.toggle('teach-stale', refused && facts !== null);
      if (!refused) {
        facts = next;
        showCheck(next.check, next.checkText);
        chartWanted = true;
        drawChart(false);   // the page applies the selection next
        // Not seen now: the last program's chart goes (a big one holds
        // thousands of elements) and is drawn anew when it is seen.
        if (chartWanted) chart.clear();
      } else if (facts === null) {
        showCheck(null, '');
      }
      if (!refused || facts === null) train.settings(refused ? null : next.trainSettings);
      stepper.update(next, refused);
      showExplanation();
    },
    // the page applied the selection highlight (markup, picture or chart
    // may be new): the explanation and the step's marks follow.
    selectionApplied() {
      showExplanation();
      stepper.decorate();
    },
    programChanged: (key) => train.programChanged(key),
    warmTraining: () => train.warm(),
    // Another program is in the editor: the node under the pointer is of
    // the last one until the pointer moves.
    forgetHover() { hovered = null; showExplanation(); },
    stepping: () => stepper.open,
    viewChanged: () => drawChart(),
  };
}
