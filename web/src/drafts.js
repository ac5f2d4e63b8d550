// The reader's drafts: every program typed is kept, in localStorage, so that
// nothing is lost to a shared link, a sample or a reload.
//
// localStorage holds an index (`topos-playground:drafts`: the current
// draft's id and, per draft, its id, name, choices and times) and each
// draft's program under its own key (`topos-playground:draft:ID`), so a
// keystroke rewrites one program and the small index.  The list also lives
// in memory: when storage is unavailable (a private window, storage
// disabled) or full, the drafts still work for this visit, and `problem`
// says why they will not outlast it.  No DOM here.

const INDEX_KEY = 'topos-playground:drafts';
const DRAFT_PREFIX = 'topos-playground:draft:';
const OLD_KEY = 'topos-playground:program';   // the page before drafts kept one program here

function storageOrNull() {
  try {
    const s = globalThis.localStorage;
    s.getItem(INDEX_KEY);   // throws where storage is disabled
    return s;
  } catch {
    return null;
  }
}

function isQuota(error) {
  return error?.name === 'QuotaExceededError' || error?.code === 22 || /quota/i.test(String(error?.message));
}

// The first line that says something, for the drafts list.
export function firstLine(program) {
  // Line by line, not split: it runs on every key, and programs run to
  // thousands of lines.
  let t = '';
  for (let at = 0; at <= program.length && t === '';) {
    const end = program.indexOf('\n', at);
    t = program.slice(at, end < 0 ? program.length : end).trim();
    at = end < 0 ? program.length + 1 : end + 1;
  }
  return t.length > 60 ? t.slice(0, 59) + '…' : t;
}

// What a draft is called: its name, else its first line.
export function draftTitle(draft) {
  return draft.name || firstLine(draft.program) || 'an empty draft';
}

// A file name stem for a draft: its name, else the program's first comment
// (up to a colon), else "topos"; lower case, words joined by '-'.
export function fileStem(draft) {
  let base = draft.name;
  if (!base) {
    const comment = draft.program.split('\n').find((l) => /^\s*#\s*\S/.test(l));
    base = comment ? comment.replace(/^\s*#\s*/, '').split(':')[0] : '';
  }
  const slug = base.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug.slice(0, 48).replace(/-+$/, '') || 'topos';
}

export class Drafts {
  constructor() {
    this.list = [];        // {id, name, program, target, observe, exact, created, updated, origin}
    this.current = null;   // the id of the draft in the editor
    this.problem = null;   // null, 'unavailable' or 'full'
    this.onProblem = () => {};
    this.deleted = new Set();   // ids this tab deleted: a merge must not bring them back
    this.soon = new Set();      // ids whose program is written in the next task (writeSoon)
    this.soonTimer = null;
    this.storage = storageOrNull();
    if (!this.storage) this.problem = 'unavailable';
    this.load();
  }

  load() {
    const s = this.storage;
    if (!s) return;
    const index = this.sync();
    if (index && this.get(index.current)) this.current = index.current;
    // The one program an older page kept becomes a draft.
    const old = s.getItem(OLD_KEY);
    if (old !== null) {
      if (!this.list.some((d) => d.program === old)) {
        const d = this.create({ program: old });
        if (!this.current) this.current = d.id;
      }
      try { s.removeItem(OLD_KEY); } catch { /* kept for next time */ }
      this.writeIndex();
    }
  }

  // Takes in the drafts another tab of this page added (every write merges
  // first, so two tabs never drop each other's drafts).  Returns the index.
  sync() {
    const s = this.storage;
    let index = null;
    try { index = JSON.parse(s.getItem(INDEX_KEY) || 'null'); } catch { index = null; }
    if (index && Array.isArray(index.drafts)) {
      for (const d of index.drafts) {
        if (!d || typeof d.id !== 'string' || this.get(d.id) || this.deleted.has(d.id)) continue;
        let program = null;
        try { program = s.getItem(DRAFT_PREFIX + d.id); } catch { program = null; }
        if (program === null) continue;
        this.list.push({
          id: d.id, name: String(d.name || ''), program,
          target: String(d.target || ''), observe: String(d.observe || ''), exact: !!d.exact,
          created: Number(d.created) || Date.now(), updated: Number(d.updated) || Date.now(),
          origin: String(d.origin || ''),
        });
      }
    }
    return index;
  }

  get(id) { return this.list.find((d) => d.id === id) || null; }
  find(program) { return this.list.find((d) => d.program === program) || null; }
  // Newest first.
  sorted() { return [...this.list].sort((a, b) => b.updated - a.updated); }

  create({ program = '', name = '', target = '', observe = '', exact = false, origin = '' } = {}) {
    const now = Date.now();
    let id;
    do id = now.toString(36) + Math.random().toString(36).slice(2, 7); while (this.get(id));
    const d = { id, name, program, target, observe, exact, created: now, updated: now, origin };
    this.list.push(d);
    this.writeDraft(d);
    return d;
  }

  // Puts back a draft that was removed (undoing a sample's load).
  restore(draft) {
    if (this.get(draft.id)) return;
    this.deleted.delete(draft.id);
    this.list.push({ ...draft });
    this.writeDraft(draft);
  }

  select(id) {
    if (!this.get(id)) return;
    this.current = id;
    this.writeIndex();
  }

  // @soon: the program is stored in a task of its own (writeSoon).
  update(id, fields, soon = false) {
    const d = this.get(id);
    if (!d) return;
    const programChanged = fields.program !== undefined && fields.program !== d.program;
    Object.assign(d, fields);
    // The list is newest first by the program's changes: a rename keeps
    // a draft where it is.
    if (programChanged) d.updated = Date.now();
    if (programChanged && soon) this.writeSoon(d);
    else if (programChanged) this.writeDraft(d);
    else this.writeIndex();
  }

  remove(id) {
    this.deleted.add(id);
    this.list = this.list.filter((d) => d.id !== id);
    if (this.current === id) this.current = null;
    if (this.storage) {
      try { this.storage.removeItem(DRAFT_PREFIX + id); } catch { /* the index no longer names it */ }
    }
    this.writeIndex();
  }

  writeDraft(d) {
    this.write(() => this.storage.setItem(DRAFT_PREFIX + d.id, d.program));
  }

  writeIndex() {
    this.write(() => {});
  }

  // A pasted long program is stored in a task after the paste's, which is
  // the editor's (the store of a 5,000-line program took 3 ms of it).  The
  // list in memory has the program at once; any other write first stores
  // it, and so does flush(), which the page calls when it is hidden.
  writeSoon(d) {
    if (!this.storage) return;
    this.soon.add(d.id);
    this.soonTimer ??= setTimeout(() => this.flush(), 0);
  }

  flush() {
    clearTimeout(this.soonTimer);
    this.soonTimer = null;
    const ids = [...this.soon];
    this.soon.clear();
    for (const id of ids) {
      const d = this.get(id);
      if (d) this.writeDraft(d);
    }
  }

  // Runs a write and then the index's; reports a change of problem.
  write(step) {
    if (!this.storage) return;
    if (this.soon.size) this.flush();
    const before = this.problem;
    try {
      step();
      this.sync();
      this.storage.setItem(INDEX_KEY, JSON.stringify({
        current: this.current,
        drafts: this.list.map(({ program, ...meta }) => meta),
      }));
      this.problem = null;
    } catch (error) {
      this.problem = isQuota(error) ? 'full' : 'unavailable';
    }
    if (this.problem !== before) this.onProblem(this.problem);
  }
}
