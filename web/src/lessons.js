// The Lessons panel beside the editor (docs/lessons.md): a lesson's
// title and text, its goals ticked as the program changes, its questions,
// hints, the course's previous and next, the solution behind a
// confirmation, and progress kept in this browser.  The desktop's Lessons
// pane (ui/tp-lesson-pane.c) does the same, in the same words.
//
// The engine says everything: the lesson is the engine's JSON of it
// (tp_wasm_lesson_open), its text spans built into DOM as text
// (lesson-text.js), the goals' states and what was found are its grade
// (tp_wasm_lesson_grade).  The grade rides on the page's read: each read
// request names the lesson and the answers (currentRead), and the engine
// worker grades the session after the readings, without training; an
// answer, or "Train and check", grades the shown read again without a
// compile.  The program is read with the lesson's `## choices`, set on
// the page's own optimise, rematerialise and direction when it opens.
import { $, page, say, writeHash } from './page-state.js';
import { askEngine, scheduleRead } from './engine-client.js';
import { showDraft } from './drafts-ui.js';
import { blocks, message, putMessage } from './lesson-text.js';

// The course, bundled at build time (build-site.mjs): [{id, text}] in order.
const COURSE = __TP_LESSONS__;
const PROGRESS_KEY = 'topos-playground:lessons';
const OUTSIDE_KEY = 'topos-playground:lesson-text';
const MAX_LESSON_BYTES = 262144;   // TP_LESSON_MAX_BYTES: the engine refuses more
const MAX_LINK_CHARS = 360000;     // base64url of that, and a little room

const st = {
  lesson: null,      // the engine's JSON of the lesson shown
  text: null,        // its text, as written
  key: 0,            // which lesson (a new one each time one opens)
  index: -1,         // its place in the course, -1 from a file or a link
  from: '',          // 'file' or 'link' for a lesson from outside
  answers: [],
  hintsShown: 0,
  goalHints: false,  // every hint shown: the goals' own too
  grade: null,
  finished: false,
  goalEls: [],
  progress: { finished: [], current: null, open: false },
};

function loadProgress() {
  try {
    const p = JSON.parse(localStorage.getItem(PROGRESS_KEY) || 'null');
    if (p && Array.isArray(p.finished)) st.progress = { finished: p.finished.filter((x) => typeof x === 'string'), current: typeof p.current === 'string' ? p.current : null, open: !!p.open };
  } catch { /* no storage, or not ours: start afresh */ }
}
function saveProgress() {
  try { localStorage.setItem(PROGRESS_KEY, JSON.stringify(st.progress)); } catch { /* ignore */ }
}

export const lessonOpen = () => !$('#lesson').hidden;

// What a read asks the engine to grade (page-state.js currentRead).
// Nothing while the panel is closed: the grade is paid for only when seen.
export function lessonRequest() {
  return st.lesson && lessonOpen() ? { text: st.text, answers: st.answers.slice(), key: st.key } : null;
}

// base64url of UTF-8 text, and back (null when it is not).
function toLink(text) {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
function fromLink(code) {
  if (!/^[A-Za-z0-9_-]*$/.test(code)) return null;
  try {
    const bin = atob(code.replace(/-/g, '+').replace(/_/g, '/'));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

function showError(text) {
  const el = $('#lesson-error');
  el.textContent = text ? `This lesson cannot be read: ${text}` : '';
  el.hidden = !text;
}

// Opens lesson text (where: {index, from, name, fresh}); fresh: its
// starting program goes into the editor, as a draft of its own.  A
// refused lesson shows the engine's message and changes nothing else.
async function openText(text, { index = -1, from = '', name = '', fresh = true } = {}) {
  showPanel(true);
  let answer;
  try {
    answer = await askEngine('lesson', { lessonOpen: text });
  } catch (error) {
    showError(String(error?.message || error));
    return false;
  }
  if (answer.status !== 1) {
    const e = answer.lesson?.error;
    const where = e ? `${name ? name + ':' : ''}${e.line}:${e.column}: ${e.message}` : 'the page ran out of memory';
    showError(where);
    say(`the lesson was not opened; the program is as it was.`);
    return false;
  }
  showError('');
  Object.assign(st, { lesson: answer.lesson, text, key: st.key + 1, index, from, hintsShown: 0, goalHints: false, grade: null, finished: false });
  st.answers = new Array(answer.lesson.questions || 0).fill(-1);
  st.progress.current = index >= 0 ? COURSE[index].id : null;
  saveProgress();
  try {
    if (index >= 0) localStorage.removeItem(OUTSIDE_KEY);
    else if (text.length <= MAX_LESSON_BYTES) localStorage.setItem(OUTSIDE_KEY, JSON.stringify({ text, from }));
  } catch { /* ignore */ }
  // Its choices are the page's while it is open (docs/lessons.md, The choices).
  const ch = st.lesson.choices || {};
  page.chosen.optimize = !!ch.optimize;
  page.chosen.remat = ch.remat === 'auto' ? 'auto' : Array.isArray(ch.remat) ? ch.remat.slice() : [];
  if (ch.direction) page.chosen.direction = ch.direction;
  page.passes.applyPassChoices();
  render();
  if (fresh) {
    const drafts = page.drafts;
    const d = drafts.find(st.lesson.start) || drafts.create({ program: st.lesson.start, name: st.lesson.title.source, origin: 'lesson' });
    showDraft(d);
  } else scheduleRead();
  writeHash();
  return true;
}

export function openCourse(index, fresh = true) {
  if (index < 0 || index >= COURSE.length) return Promise.resolve(false);
  return openText(COURSE[index].text, { index, fresh });
}

// A .lesson file (drafts-ui.js hands dropped and opened ones over).
export async function openLessonFile(file) {
  if (file.size > MAX_LESSON_BYTES) {
    showPanel(true);
    showError(`${file.name}: a lesson has at most 262,144 bytes`);
    return;
  }
  let text;
  try { text = await file.text(); } catch (error) { say(`${file.name} could not be read: ${error?.message || error}`); return; }
  openText(text, { from: 'file', name: file.name });
}

// A link's lesson (#lesson=BASE64URL); true when the hash carries one.
export function openFromHash(hash) {
  const code = new URLSearchParams(hash.replace(/^#/, '')).get('lesson');
  if (code === null) return false;
  if (code.length > MAX_LINK_CHARS) {
    showPanel(true);
    showError('the link carries a lesson longer than the 262,144 bytes a lesson may have');
    return true;
  }
  const text = fromLink(code);
  if (text === null) {
    showPanel(true);
    showError('the link does not carry a lesson (its #lesson= is not base64url of UTF-8 text)');
    return true;
  }
  openText(text, { from: 'link' });
  return true;
}

/* ---------------------------------------------------------- drawing */

function render() {
  const l = st.lesson;
  $('#lesson-place').textContent = st.index >= 0 ? `Lesson ${st.index + 1} of ${COURSE.length}` : st.from === 'link' ? 'A lesson from a link' : 'A lesson from a file';
  putMessage($('#lesson-title'), l.title);
  $('#lesson-text').replaceChildren(...blocks(l.text));
  st.goalEls = l.goals.map((g, k) => goalEl(g, k));
  $('#lesson-goals').replaceChildren(...st.goalEls.map((e) => e.li));
  $('#lesson-hints').replaceChildren();
  showGradeNow();
}

function goalEl(g, k) {
  const li = document.createElement('li');
  li.dataset.goal = String(k);
  const mark = document.createElement('span');
  mark.className = 'lesson-mark';
  const found = document.createElement('p');
  found.className = 'lesson-found';
  const hint = message('p', g.hint, 'lesson-hint');
  hint.hidden = true;
  if (g.question) {
    const fs = document.createElement('fieldset');
    const legend = message('legend', g.sentence);
    legend.prepend(mark);
    fs.append(legend);
    g.question.choices.forEach((c, i) => {
      const label = document.createElement('label');
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = `lesson-q${g.question.number}`;
      radio.value = String(i);
      radio.checked = st.answers[g.question.number] === i;
      radio.addEventListener('change', () => answer(g.question.number, i));
      label.append(radio, ' ', message('span', c));
      fs.append(label);
    });
    li.append(fs, found, hint);
  } else {
    li.append(mark, message('span', g.sentence, 'lesson-sentence'), found, hint);
  }
  return { li, mark, found, hint, goal: g };
}

const MARKS = { met: ['✓', 'met'], unmet: ['✗', 'not met'], ungraded: ['…', 'not graded yet'] };

function showGradeNow() {
  const grade = st.grade;
  let ungraded = false;
  st.goalEls.forEach((e, k) => {
    const r = grade?.goals?.[k];
    const state = r ? r.state : 'ungraded';
    ungraded ||= !!grade && state === 'ungraded';
    e.li.dataset.state = state;
    e.mark.textContent = MARKS[state][0];
    e.mark.title = MARKS[state][1];
    e.mark.setAttribute('aria-label', MARKS[state][1]);
    e.found.textContent = r && state !== 'met' && r.found ? r.found : '';
    e.found.hidden = e.found.textContent === '';
    e.hint.hidden = !(e.goal.hint && st.goalHints && state !== 'met');
  });
  const finished = !!grade?.all_met;
  const status = $('#lesson-status');
  status.textContent = !grade ? '' : finished ? 'Lesson finished: every goal is met.'
    : `${grade.met} of ${st.goalEls.length} goal${st.goalEls.length === 1 ? '' : 's'} met`;
  status.classList.toggle('success', finished);
  if (finished && !st.finished) {
    const id = st.index >= 0 ? COURSE[st.index].id : null;
    if (id && !st.progress.finished.includes(id)) { st.progress.finished.push(id); saveProgress(); }
  }
  st.finished = finished;
  $('#lesson-train').hidden = !ungraded;
  updateButtons();
}

function updateButtons() {
  const n = st.lesson?.hints?.length || 0;
  $('#lesson-hint').disabled = !st.lesson || (st.hintsShown >= n && st.goalHints);
  $('#lesson-previous').disabled = st.index <= 0;
  $('#lesson-next').disabled = st.index < 0 || st.index + 1 >= COURSE.length;
  $('#lesson-next-offer').hidden = !(st.finished && st.index >= 0 && st.index + 1 < COURSE.length);
  $('#lesson-solution').disabled = !st.lesson;
  $('#lesson-copy').disabled = !st.lesson;
  const done = st.index >= 0 && st.progress.finished.includes(COURSE[st.index].id);
  $('#lesson-done').hidden = !done;
}

// The grade of the read shown (engine-client.js), or null.
export function showGrade(grade, key) {
  if (!st.lesson || key !== st.key) return;   // of another lesson
  st.grade = grade;
  showGradeNow();
}

function regrade(flags) {
  if (page.shownId === null) return Promise.resolve();
  const key = st.key;
  return askEngine('grade', { regrade: { of: page.shownId, text: st.text, answers: st.answers.slice(), flags } })
    .then((m) => { if (!m.gone && m.grade) showGrade(m.grade, key); }, () => {});
}

function answer(q, i) {
  st.answers[q] = i;
  regrade(1);   // TP_GRADE_NO_TRAINING
}

/* ---------------------------------------------------------- the panel */

function showPanel(on) {
  $('#lesson').hidden = !on;
  document.body.classList.toggle('lesson-open', on);
  $('#lessons-toggle').setAttribute('aria-expanded', String(on));
  if (on && st.lesson) regrade(1);   // the reads while it was closed graded nothing
  st.progress.open = on;
  saveProgress();
  page.view?.requestMeasure();
}

export function toggleLessons() {
  const on = !lessonOpen();
  showPanel(on);
  if (on && !st.lesson) openCourse(0);
  if (on) $('#lesson-title').focus();
  else page.view.focus();
}

function nextHint() {
  const hints = st.lesson.hints || [];
  if (st.hintsShown < hints.length) {
    $('#lesson-hints').append(message('p', hints[st.hintsShown], 'lesson-hint'));
    st.hintsShown++;
  } else st.goalHints = true;
  showGradeNow();
}

async function copyLink() {
  const url = `${location.origin}${location.pathname}#lesson=${toLink(st.text)}`;
  const b = $('#lesson-copy');
  try {
    await navigator.clipboard.writeText(url);
    b.textContent = 'link copied';
  } catch {
    window.history.replaceState(null, '', url);
    b.textContent = 'the link is in the address bar';
  }
  setTimeout(() => { b.textContent = 'copy link to this lesson'; }, 1800);
}

function wireConfirm() {
  const dlg = $('#lesson-confirm');
  $('#lesson-solution').onclick = () => dlg.showModal();
  $('#lesson-confirm-cancel').onclick = () => dlg.close();
  $('#lesson-confirm-ok').onclick = () => {
    dlg.close();
    const v = page.view;
    // One transaction: Ctrl+Z takes the whole solution back.
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: st.lesson.solution }, userEvent: 'input.lesson' });
    v.focus();
  };
}

export function wireLessons() {
  loadProgress();
  $('#lessons-toggle').onclick = toggleLessons;
  $('#lesson-close').onclick = () => { showPanel(false); $('#lessons-toggle').focus(); };
  $('#lesson-hint').onclick = nextHint;
  $('#lesson-previous').onclick = () => openCourse(st.index - 1);
  $('#lesson-next').onclick = () => openCourse(st.index + 1);
  $('#lesson-next-offer').onclick = () => openCourse(st.index + 1);
  $('#lesson-train').onclick = async () => {
    const b = $('#lesson-train');
    b.disabled = true;
    b.textContent = 'training…';
    await regrade(0);
    b.disabled = false;
    b.textContent = 'Train and check';
  };
  $('#lesson-copy').onclick = copyLink;
  $('#lesson-open').onclick = () => $('#lesson-file').click();
  $('#lesson-file').addEventListener('change', (e) => {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (f) openLessonFile(f);
  });
  wireConfirm();
  window.addEventListener('hashchange', () => openFromHash(location.hash));
}

// At the start: a link's lesson, else the panel as it was left.
export function startLessons() {
  if (openFromHash(location.hash)) return;
  if (!st.progress.open) return;
  const at = COURSE.findIndex((c) => c.id === st.progress.current);
  if (at >= 0) { openCourse(at, false); return; }
  let outside = null;
  try { outside = JSON.parse(localStorage.getItem(OUTSIDE_KEY) || 'null'); } catch { /* ignore */ }
  if (outside && typeof outside.text === 'string') openText(outside.text, { from: outside.from === 'link' ? 'link' : 'file', fresh: false });
  else openCourse(0);
}
