// The drafts on the page (drafts.js keeps them): the draft in the editor,
// the drafts list (switch, rename, delete), samples and .tape files opened
// as new drafts, and two tabs of the page on one draft.
import { undoDepth } from '@codemirror/commands';

import { $, page, say, sayUntilTyping, typed, undoButton, writeHash } from './page-state.js';
import { draftTitle, firstLine } from './drafts.js';
import { editorState, setReadOnly } from './editor.js';
import { scheduleRead } from './engine-client.js';
import { applyChoices } from './choices.js';
import { applySelection } from './selection.js';

const SAMPLES = __TP_SAMPLES__;
const MAX_FILE_BYTES = 4 << 20;
const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const ui = {
  renaming: null,     // the id of the draft whose name is being edited
  deleting: null,     // the id of the draft asked to be deleted
  // The last sample loaded, while Ctrl+Z can undo it:
  // {draft: the sample's id, previous: id, removed: draft or null}
  sampleLoad: null,
  edited: null,       // the draft this tab's reader changed, while it is shown here
  following: null,    // the draft another tab is changing: read-only here
};

// The tabs of the page tell each other when one stops changing a draft
// (it is hidden, closed, or opens another draft): a tab that followed it,
// read-only, may then edit it.
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('topos-playground') : null;
function letGo() {
  if (ui.edited !== null) channel?.postMessage({ letGo: ui.edited });
  ui.edited = null;
}

// Read-only while another tab changes draft id (null: editable), with a
// note that says so and offers to edit it here or edit a copy.
function follow(id) {
  ui.following = id;
  document.body.classList.toggle('following', id !== null);
  $('#follow-note').hidden = id === null;
  if (id !== null) {
    const d = page.drafts.get(id);
    $('#follow-text').textContent = `Another tab of the page is changing “${d ? draftTitle(d) : 'this draft'}”: it is read-only here, and follows that tab.`;
  }
  setReadOnly(id !== null);
}

// Shows a draft in the editor (its own undo history) with its choices.
export function showDraft(d) {
  const drafts = page.drafts;
  if (d.id !== drafts.current) letGo();
  drafts.select(d.id);
  page.view.setState(editorState(d.program));
  follow(null);
  Object.assign(page.chosen, { program: d.program, target: d.target, observe: d.observe, exact: d.exact });
  ui.sampleLoad = null;
  page.pasted = null;
  // Another program: no node of this one is selected.
  page.selected = null;
  page.teach.forgetHover();
  applySelection();
  applyChoices();
  renderDrafts();
  scheduleRead();
}

// The editor's text changed: the draft follows (soon: stored a task
// later); byReader: the reader's own edit, not another tab's.
export function programEdited(soon, byReader) {
  page.drafts.update(page.drafts.current, { program: page.chosen.program }, soon);
  if (byReader) {
    typed();
    ui.edited = page.drafts.current;
  }
  renderDrafts();
}

export function showStorageProblem(problem) {
  const el = $('#storage-warning');
  el.hidden = !problem;
  el.textContent = problem === 'full'
    ? 'The browser’s storage for this page is full: your latest changes are not kept as a draft. Save the program as a file (Ctrl+S), or delete drafts you no longer need.'
    : problem
      ? 'This browser does not let the page keep drafts (a private window, or storage turned off): your programs last only until this page is closed. Save the program as a file (Ctrl+S) to keep it.'
      : '';
}

// One row of the drafts list: its name (or the field renaming it), and
// rename and delete (or the question whether to delete it).
function draftRow(d, list) {
  const drafts = page.drafts;
  const li = document.createElement('li');
  li.dataset.draft = d.id;
  if (d.id === drafts.current) li.classList.add('current');
  const title = draftTitle(d);
  if (ui.renaming === d.id) {
    const input = document.createElement('input');
    input.type = 'text';
    input.value = d.name;
    input.placeholder = firstLine(d.program) || 'a name';
    input.setAttribute('aria-label', `the name of the draft “${title}”`);
    input.className = 'draft-rename';
    let done = false;
    const finish = (keep) => {
      if (done) return;
      done = true;
      ui.renaming = null;
      if (keep) drafts.update(d.id, { name: input.value.trim().slice(0, 80) });
      renderDrafts();
      list.querySelector(`[data-draft="${d.id}"] .draft-open`)?.focus();
    };
    input.onkeydown = (e) => {
      if (e.key === 'Enter') { e.preventDefault(); finish(true); }
      if (e.key === 'Escape') { e.preventDefault(); e.stopPropagation(); finish(false); }
    };
    input.onblur = () => finish(true);
    li.append(input);
    queueMicrotask(() => { input.focus(); input.select(); });
  } else {
    const open = document.createElement('button');
    open.type = 'button';
    open.className = 'draft-open';
    if (d.id === drafts.current) open.setAttribute('aria-current', 'true');
    const name = document.createElement('span');
    name.className = 'draft-title';
    name.textContent = title;
    const meta = document.createElement('span');
    meta.className = 'draft-meta';
    const line = d.name ? firstLine(d.program) : '';
    meta.textContent = [line, timeFormat.format(d.updated), d.origin === 'link' ? 'from a link' : d.origin === 'file' ? 'from a file' : '']
      .filter(Boolean).join(' · ');
    open.append(name, meta);
    open.onclick = () => {
      if (d.id !== drafts.current) { showDraft(d); writeHash(); }
      toggleDrafts(false);
      page.view.focus();
    };
    li.append(open);
  }
  if (ui.deleting === d.id) {
    const ask = document.createElement('span');
    ask.className = 'draft-ask';
    ask.textContent = 'delete it?';
    const yes = undoButton('delete', () => deleteDraft(d.id));
    yes.setAttribute('aria-label', `yes, delete the draft “${title}”`);
    const no = undoButton('keep', () => { ui.deleting = null; renderDrafts(); });
    no.setAttribute('aria-label', `keep the draft “${title}”`);
    li.append(ask, yes, no);
    queueMicrotask(() => no.focus());
  } else if (ui.renaming !== d.id) {
    const rename = undoButton('rename', () => { ui.renaming = d.id; ui.deleting = null; renderDrafts(); });
    rename.setAttribute('aria-label', `rename the draft “${title}”`);
    const del = undoButton('delete', () => { ui.deleting = d.id; ui.renaming = null; renderDrafts(); });
    del.setAttribute('aria-label', `delete the draft “${title}”`);
    li.append(rename, del);
  }
  return li;
}

export function renderDrafts() {
  const drafts = page.drafts;
  const current = drafts.get(drafts.current);
  $('#draft-name').textContent = current ? draftTitle(current) : '';
  $('#drafts-toggle').textContent = `drafts (${drafts.list.length})`;
  if ($('#drafts').hidden) return;
  const list = $('#drafts-list');
  list.replaceChildren(...drafts.sorted().map((d) => draftRow(d, list)));
}

function deleteDraft(id) {
  const drafts = page.drafts;
  const d = drafts.get(id);
  ui.deleting = null;
  if (!d) return;
  const wasCurrent = id === drafts.current;
  drafts.remove(id);
  const load = ui.sampleLoad;
  if (load && (load.draft === id || load.previous === id)) ui.sampleLoad = null;
  if (wasCurrent) {
    const next = drafts.sorted()[0] || drafts.create();
    showDraft(next);
    writeHash();
  }
  say(`deleted the draft “${draftTitle(d)}”. `, undoButton('undo the delete', () => {
    drafts.restore(d);
    if (wasCurrent) { showDraft(drafts.get(d.id)); writeHash(); }
    say(`“${draftTitle(d)}” is back.`);
    renderDrafts();
  }));
  renderDrafts();
}

function toggleDrafts(open = $('#drafts').hidden) {
  $('#drafts').hidden = !open;
  $('#drafts-toggle').setAttribute('aria-expanded', String(open));
  ui.renaming = ui.deleting = null;
  renderDrafts();
}

// The list goes once it has done its work (a draft opened, a new one
// made), on Escape and on a press outside it; focus that was in it goes
// back to its toggle.
function closeDrafts() {
  const panel = $('#drafts');
  if (panel.hidden) return;
  const inside = panel.contains(document.activeElement);
  toggleDrafts(false);
  if (inside) $('#drafts-toggle').focus();
}

// A sample opens as a new draft: the program it replaces stays a draft of
// its own (an empty one, or an untouched sample, is simply put away).
// Ctrl+Z in the editor, before any edit, undoes the load.
function loadSample(s) {
  const drafts = page.drafts;
  const previous = drafts.get(drafts.current);
  let removed = null;
  if (previous && (previous.program.trim() === '' || SAMPLES.some((x) => x.program === previous.program))) {
    removed = { ...previous };
    drafts.remove(previous.id);
  }
  const d = drafts.create({ program: s.program, target: s.target, observe: s.observe, origin: 'sample' });
  showDraft(d);
  ui.sampleLoad = { draft: d.id, previous: previous?.id ?? null, removed };
  say(removed || !previous
    ? `loaded the sample “${s.title}”. `
    : `loaded the sample “${s.title}”; your program is kept as the draft “${draftTitle(previous)}”. `,
  undoButton('undo the load (Ctrl+Z)', () => {
    if (!undoSampleLoad()) say('the sample has been edited since, so it stays; every program you had is in the drafts list.');
  }));
}

export function undoSampleLoad() {
  const drafts = page.drafts;
  const load = ui.sampleLoad;
  if (!load || load.draft !== drafts.current || undoDepth(page.view.state) > 0) return false;
  const { draft, previous, removed } = load;
  ui.sampleLoad = null;
  drafts.remove(draft);
  if (removed) drafts.restore(removed);
  const back = drafts.get(previous) || drafts.sorted()[0] || drafts.create();
  showDraft(back);
  say(`back to “${draftTitle(back)}”.`);
  page.view.focus();
  return true;
}

// A .tape file opens as a new draft named after the file.
async function openFile(file) {
  if (!file) return;
  if (/\.lesson$/i.test(file.name) && page.openLessonFile) { page.openLessonFile(file); return; }
  if (file.size > MAX_FILE_BYTES) {
    say(`${file.name} is not opened: it has ${(file.size / 1048576).toFixed(1)} MB, and the page opens programs up to 4 MB.`);
    return;
  }
  let text;
  try {
    text = await file.text();
  } catch (error) {
    say(`${file.name} could not be read: ${error?.message || error}`);
    return;
  }
  if (text.includes('\u0000')) {
    say(`${file.name} is not opened: it is not a text file.`);
    return;
  }
  text = text.replace(/\r\n?/g, '\n');
  const name = file.name.replace(/\.(tape|txt)$/i, '');
  const d = page.drafts.create({ program: text, name, origin: 'file' });
  showDraft(d);
  writeHash();
  say(`opened ${file.name} as a new draft.`);
  page.view.focus();
}
export const pickFile = () => $('#open-file').click();

// Another tab of the page changed the drafts.  When it changed the draft
// this tab shows: a tab that had not changed it follows; a tab that had
// changed it too keeps its own text as a new draft (nothing is lost).
function onStorage(e) {
  const { drafts, view, chosen } = page;
  if (e.key !== null && !e.key.startsWith('topos-playground:draft')) return;
  const mine = drafts.get(drafts.current);
  if (mine && e.key === `topos-playground:draft:${mine.id}`) {
    if (e.newValue === null) {
      drafts.writeDraft(mine);   // deleted there while open here: kept, and edited here
      if (ui.following === mine.id) follow(null);
    } else if (e.newValue !== chosen.program) {
      if (e.oldValue === chosen.program) {
        // Already stored by the other tab: not written back (a write of a
        // text that other tab has since moved past would undo its keys).
        // Read-only here from now on: keys typed in both tabs at once
        // would otherwise merge into one text.
        mine.program = e.newValue;
        ui.edited = null;
        if (ui.following !== mine.id) follow(mine.id);
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: e.newValue } });
      } else {
        const copy = drafts.create({ program: chosen.program, name: `${mine.name || firstLine(chosen.program) || 'a draft'} (this tab)`,
          target: chosen.target, observe: chosen.observe, exact: chosen.exact, origin: mine.origin });
        mine.program = e.newValue;
        drafts.select(copy.id);
        say(`“${draftTitle(mine)}” was changed in another tab while you changed it here: your text is kept as a new draft, “${draftTitle(copy)}”.`);
      }
    }
  }
  drafts.sync();
  renderDrafts();
}

export function wireDrafts() {
  const drafts = page.drafts;
  $('#drafts-toggle').onclick = () => toggleDrafts();
  $('#drafts-close').onclick = () => { toggleDrafts(false); $('#drafts-toggle').focus(); };
  $('#draft-new').onclick = () => {
    showDraft(drafts.create());
    writeHash();
    toggleDrafts(false);
    sayUntilTyping('a new, empty draft; the others are in the list.');
    page.view.focus();
  };
  // Before the page's other Escape (which clears the selection); a name
  // being edited takes its own Escape (it leaves the name as it was).
  window.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || $('#drafts').hidden || e.defaultPrevented || $('#keys').open) return;
    if (e.target instanceof Element && e.target.classList.contains('draft-rename')) return;
    e.preventDefault();
    closeDrafts();
  }, true);
  // On the click, not the press: closed at the press, the list's room
  // would go before the click lands, and the click would miss its target.
  document.addEventListener('click', (e) => {
    if (!(e.target instanceof Node) || $('#drafts').contains(e.target) || $('#drafts-toggle').contains(e.target)) return;
    closeDrafts();
  }, true);

  const sampleSelect = $('#sample');
  // The manifest's teaching flag splits the menu as on the desktop.
  const sampleGroup = (label, teaching) => {
    const g = document.createElement('optgroup');
    g.label = label;
    g.append(...SAMPLES.filter((s) => s.teaching === teaching).map((s) => new Option(s.title, s.id)));
    return g;
  };
  sampleSelect.replaceChildren(new Option('choose…', ''), sampleGroup('From the original playground', false),
    sampleGroup('Teaching samples', true));
  sampleSelect.addEventListener('change', () => {
    const s = SAMPLES.find((x) => x.id === sampleSelect.value);
    if (!s) return;
    loadSample(s);
    sampleSelect.value = '';
    page.view.focus();
  });

  const fileInput = $('#open-file');
  $('#open').onclick = pickFile;
  fileInput.addEventListener('change', () => {
    const file = fileInput.files[0];
    fileInput.value = '';
    openFile(file);
  });
  // A file dropped anywhere on the page opens (the editor would otherwise
  // insert its text into the current draft).
  const hasFiles = (e) => [...(e.dataTransfer?.types || [])].includes('Files');
  window.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    document.body.classList.add('dropping');
  }, true);
  window.addEventListener('dragleave', (e) => {
    if (e.relatedTarget === null) document.body.classList.remove('dropping');
  }, true);
  window.addEventListener('drop', (e) => {
    document.body.classList.remove('dropping');
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.stopPropagation();
    openFile(e.dataTransfer.files[0]);
  }, true);

  window.addEventListener('storage', onStorage);
  // A program pasted just before the page is left or hidden is stored now;
  // the tabs that follow this one's draft may edit it.
  window.addEventListener('pagehide', () => { drafts.flush(); letGo(); });
  document.addEventListener('visibilitychange', () => { if (document.hidden) { drafts.flush(); letGo(); } });
  if (channel) {
    channel.onmessage = (e) => {
      if (e.data?.letGo === undefined || e.data.letGo !== ui.following) return;
      const d = drafts.get(ui.following);
      follow(null);
      say(`the other tab left “${d ? draftTitle(d) : 'this draft'}”: you can edit it here.`);
    };
  }
  // Taken over here: the other tab follows this one at its next write.
  $('#edit-here').onclick = () => { follow(null); page.view.focus(); };
  $('#edit-copy').onclick = () => {
    const { chosen } = page;
    const mine = drafts.get(drafts.current);
    const copy = drafts.create({ program: chosen.program, name: `${mine?.name || firstLine(chosen.program) || 'a draft'} (copy)`,
      target: chosen.target, observe: chosen.observe, exact: chosen.exact, origin: mine?.origin || '' });
    showDraft(copy);
    writeHash();
    say(`a copy to edit here: “${draftTitle(copy)}”; the other tab keeps “${mine ? draftTitle(mine) : 'its draft'}”.`);
    page.view.focus();
  };
}

// The draft a page opened without a program in its hash starts with (the
// current one, else the newest, else a new one of the README sample), and
// the choices to take from it when the hash had none.
export function startingDraft() {
  const drafts = page.drafts;
  const d = drafts.get(drafts.current) || drafts.sorted()[0];
  if (d) return d;
  const readme = SAMPLES[0];
  return drafts.create({ program: readme.program, target: readme.target, observe: readme.observe, origin: 'sample' });
}
