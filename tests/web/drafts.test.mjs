// Never lose work, in headless Chromium: every program
// typed is a draft; a link, a file or a sample opens as a new draft beside
// the others; the drafts list switches, renames and deletes; a draft saves
// as a .tape named after it; Ctrl+Z undoes a sample's load; storage that is
// unavailable or full says so.  Screenshots go to TP_WEB_ARTIFACTS.
//
// Environment: as page.test.mjs.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { editorText, pageSuite, readings, ready } from './browser.mjs';
import { loadEngine } from './engine.mjs';

const s = pageSuite();   // the browser, opened before the tests and closed after them
const { build, site, shots, samplesDir, skip } = s;

const A = '# my own net\nw = parameter [2, 2]\nx = input [1, 2]\nloss = sum(tanh(x @ w))\n';
const B = '# from a link\nv = parameter 3.0\nloss = v * v\n';

let b, engine;
before(async () => {
  if (skip) return;
  b = await s.open();
  engine = await loadEngine(build);
});

async function replaceProgram(page, text) {
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
  await ready(page);
}

// The drafts list, opened if it is closed: [{title, meta, current}].
async function draftList(page) {
  if (await page.isHidden('#drafts')) await page.click('#drafts-toggle');
  return page.$$eval('#drafts-list li', (lis) => lis.map((li) => ({
    title: li.querySelector('.draft-title')?.textContent ?? null,
    meta: li.querySelector('.draft-meta')?.textContent ?? null,
    current: li.classList.contains('current'),
  })));
}

function row(page, title) {
  return page.locator('#drafts-list li', { has: page.locator('.draft-title', { hasText: title }) });
}

function assertReads(shown, program, choices = {}) {
  const want = JSON.parse(engine.read(program, choices).json);
  assert.equal(shown.spec, want.spec, 'the spec reading is the program’s');
  assert.equal(shown.summary, want.summary, 'the summary is the program’s');
}

test('a typed program stays a draft when a link with another program opens', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await replaceProgram(page, A);
  // The link arrives while the page is open (a pasted address: hashchange).
  await page.goto(b.base + '#program=' + encodeURIComponent(B));
  await ready(page);
  assert.equal(await editorText(page), B, 'the link’s program is in the editor');
  assertReads(await readings(page), B);
  assert.match(await page.textContent('#notice'), /opened the link as a new draft; your program is kept as “# my own net”/);
  let list = await draftList(page);
  assert.deepEqual(list.map((d) => d.title), ['# from a link', '# my own net'], 'the typed program took the place of the first sample it replaced');
  assert.ok(list[0].current, 'the link’s draft is the current one');
  assert.match(list[0].meta, /from a link/);
  await page.screenshot({ path: join(shots, 'drafts-after-link.png') });

  // A second tab with a third link: the same browser's drafts, one more.
  const C = 'u = parameter [3]\nloss = sum(u * u)\n';
  const other = await page.context().newPage();
  await other.goto(b.base + '#program=' + encodeURIComponent(C));
  await ready(other);
  assert.equal(await editorText(other), C);
  assert.equal(await other.textContent('#notice'), 'opened the link as a new draft; your 2 other drafts are in the drafts list.');
  list = await draftList(other);
  assert.deepEqual(list.map((d) => d.title).sort(), ['# from a link', '# my own net', 'u = parameter [3]']);
  // Reloading a link opens its draft again instead of adding a copy.
  await other.reload();
  await ready(other);
  assert.equal((await draftList(other)).length, 3, 'a reload adds no draft');

  // Switching back to the typed program.
  await row(page, '# my own net').locator('.draft-open').click();
  await ready(page);
  assert.equal(await editorText(page), A);
  assertReads(await readings(page), A);
  assert.equal(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('program'), A, 'the hash follows the draft');
  await other.close();
});

test('loading a sample keeps the program as a draft, and Ctrl+Z undoes the load', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await replaceProgram(page, A);
  await page.selectOption('#target', '');   // this draft's own choice; the sample's is loss
  await ready(page);
  await page.selectOption('#sample', 'mlp');
  await ready(page);
  const mlp = readFileSync(join(samplesDir, 'mlp.tape'), 'utf8');
  assert.equal(await editorText(page), mlp);
  assert.match(await page.textContent('#notice'), /your program is kept as the draft “# my own net”/);
  await page.screenshot({ path: join(shots, 'drafts-sample-loaded.png') });
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['# a two-layer MLP with softmax cross-entropy', '# my own net']);
  await page.click('#drafts-close');

  // An edit after the load is undone first, then the load itself.
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('#');
  await ready(page);
  assert.equal(await editorText(page), mlp + '#');
  await page.keyboard.press('Control+z');
  await ready(page);
  assert.equal(await editorText(page), mlp, 'Ctrl+Z undid the typed character');
  await page.keyboard.press('Control+z');
  await ready(page);
  assert.equal(await editorText(page), A, 'Ctrl+Z undid the load');
  assertReads(await readings(page), A);
  assert.equal(await page.inputValue('#target'), '', 'the draft’s own choices came back');
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['# my own net']);

  // A sample over an untouched sample replaces it; Ctrl+Z (focus outside
  // the editor: the drafts list was just closed) brings it back.
  await page.selectOption('#sample', 'readme');
  await ready(page);
  await page.selectOption('#sample', 'attention');
  await ready(page);
  assert.deepEqual((await draftList(page)).map((d) => d.title.slice(0, 20)), ['# an attention score', '# my own net']);
  await page.click('#drafts-close');
  await page.keyboard.press('Control+z');
  await ready(page);
  assert.equal(await editorText(page), readFileSync(join(samplesDir, 'readme.tape'), 'utf8'));
  assert.equal(await page.inputValue('#target'), 'loss');
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['# the README sample', '# my own net']);
});

test('drafts are renamed and deleted from the list, and outlast a reload', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await page.click('#drafts-toggle');
  await page.click('#draft-new');
  await ready(page);
  assert.equal(await editorText(page), '', 'a new draft is empty');
  assert.ok(await page.isHidden('#drafts'), 'the list closed once the new draft was made');
  await replaceProgram(page, A);

  await draftList(page);
  await row(page, '# my own net').getByRole('button', { name: /^rename/ }).click();
  const input = page.locator('#drafts-list input.draft-rename');
  assert.equal(await input.getAttribute('aria-label'), 'the name of the draft “# my own net”');
  await input.fill('My Net: v2');
  await page.screenshot({ path: join(shots, 'drafts-rename.png') });
  await input.press('Enter');
  let list = await draftList(page);
  assert.equal(list[0].title, 'My Net: v2');
  assert.match(list[0].meta, /^# my own net · /, 'a named draft still shows its first line');
  assert.equal(await page.textContent('#draft-name'), 'My Net: v2');

  // Escape leaves the name as it was.
  await row(page, 'My Net: v2').getByRole('button', { name: /^rename/ }).click();
  await page.locator('#drafts-list input.draft-rename').fill('nope');
  await page.locator('#drafts-list input.draft-rename').press('Escape');
  assert.equal((await draftList(page))[0].title, 'My Net: v2');

  await page.reload();
  await ready(page);
  assert.equal(await editorText(page), A, 'the reload opens the current draft');
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['My Net: v2', '# the README sample']);

  // Delete asks first; "keep" keeps it.
  await row(page, '# the README sample').getByRole('button', { name: /^delete/ }).click();
  await page.screenshot({ path: join(shots, 'drafts-delete-ask.png') });
  await page.getByRole('button', { name: 'keep the draft “# the README sample”' }).click();
  assert.equal((await draftList(page)).length, 2);
  // Deleting the current draft opens the next one; the notice can undo it.
  await row(page, 'My Net: v2').getByRole('button', { name: /^delete/ }).click();
  await page.getByRole('button', { name: 'yes, delete the draft “My Net: v2”' }).click();
  await ready(page);
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['# the README sample']);
  assert.equal(await editorText(page), readFileSync(join(samplesDir, 'readme.tape'), 'utf8'));
  await page.click('#notice button');
  await ready(page);
  assert.equal(await editorText(page), A, 'undo brings the deleted draft back');
  await page.reload();
  await ready(page);
  assert.deepEqual((await draftList(page)).map((d) => d.title).sort(), ['# the README sample', 'My Net: v2']);
  await row(page, '# the README sample').getByRole('button', { name: /^delete/ }).click();
  await page.getByRole('button', { name: 'yes, delete the draft “# the README sample”' }).click();
  await page.reload();
  await ready(page);
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['My Net: v2'], 'a deleted draft stays deleted');
});

// A long paste's draft is stored a task after the paste (so that the
// paste's own task is the editor's alone): a page hidden or left before
// then stores it at once.
test('a pasted long program is stored even when the page is left in the same task', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  // Long enough to count as a paste.
  const long = `# pasted\nw = parameter [2, 2]\n# ${'a long comment '.repeat(150)}\nloss = sum(w * w)\n`;
  await page.click('#editor .cm-content');
  await page.keyboard.press('Control+a');
  const [right, then] = await page.evaluate((text) => {
    const stored = () => Object.keys(localStorage).some((k) => k.startsWith('topos-playground:draft:') && localStorage.getItem(k) === text);
    document.querySelector('#editor .cm-content').dispatchEvent(new InputEvent('beforeinput',
      { inputType: 'insertText', data: text, bubbles: true, cancelable: true }));
    const right = stored();
    dispatchEvent(new PageTransitionEvent('pagehide'));
    return [right, stored()];
  }, long);
  assert.equal(right, false, 'the store waits for a task of its own');
  assert.equal(then, true, 'leaving the page stores it');
  await page.goto('about:blank');
  await page.goto(b.base);
  await ready(page);
  // (The editor draws only the lines on screen: its text's start.)
  assert.ok((await editorText(page)).startsWith('# pasted\nw = parameter [2, 2]\n# a long comment'), 'coming back opens the pasted program');
  assert.deepEqual((await draftList(page)).filter((d) => d.current).map((d) => d.title), ['# pasted']);
  await page.context().close();
});

test('a draft saves as a .tape named after it; .tape files open by picker and by drop', { skip }, async () => {
  const page = await b.page();
  // Listening from the start turns the file chooser's interception on
  // before Ctrl+O (waitForEvent alone may turn it on too late).
  page.on('filechooser', () => {});
  await page.goto(b.base);
  await ready(page);
  await replaceProgram(page, A);
  let [download] = await Promise.all([page.waitForEvent('download'), page.click('#save')]);
  assert.equal(download.suggestedFilename(), 'my-own-net.tape', 'an unnamed draft is named after its first comment');
  assert.equal(readFileSync(await download.path(), 'utf8'), A);
  await page.selectOption('#sample', 'linear-regression');
  await ready(page);
  await page.click('#editor .cm-content');
  [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Control+s')]);
  assert.equal(download.suggestedFilename(), 'linear-regression.tape', 'Ctrl+S saves, named after the draft');
  assert.equal(readFileSync(await download.path(), 'utf8'), readFileSync(join(samplesDir, 'linear-regression.tape'), 'utf8'));

  // The picker (and Ctrl+O) opens a file as a new draft named after it.
  const two = readFileSync(join(samplesDir, 'two-layers.tape'));
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Control+o')]);
  await chooser.setFiles({ name: 'two layers.tape', mimeType: 'text/plain', buffer: two });
  await ready(page);
  assert.equal(await editorText(page), two.toString('utf8'));
  assertReads(await readings(page), two.toString('utf8'));
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['two layers', '# linear regression: fit y by x @ w + b, least squares', '# my own net']);
  await page.click('#drafts-close');

  // Dropped on the editor: a new draft, not text inserted into this one.
  const drop = async (name, bytes) => {
    const dt = await page.evaluateHandle(([n, data]) => {
      const t = new DataTransfer();
      t.items.add(new File([new Uint8Array(data)], n, { type: 'text/plain' }));
      return t;
    }, [name, [...bytes]]);
    await page.dispatchEvent('#editor .cm-content', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('#editor .cm-content', 'drop', { dataTransfer: dt });
  };
  await drop('dropped.tape', Buffer.from('p = parameter 2.0\r\nloss = p * p\r\n'));
  await ready(page);
  assert.equal(await editorText(page), 'p = parameter 2.0\nloss = p * p\n', 'CRLF becomes LF');
  assert.match(await page.textContent('#notice'), /opened dropped\.tape as a new draft/);
  assert.equal((await draftList(page))[0].title, 'dropped');
  assert.equal((await draftList(page)).length, 4);
  await page.click('#drafts-close');
  // A binary file is refused and nothing changes.
  await drop('picture.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x1a]));
  await page.waitForFunction(() => /not a text file/.test(document.querySelector('#notice').textContent));
  assert.equal(await editorText(page), 'p = parameter 2.0\nloss = p * p\n');
  assert.equal((await draftList(page)).length, 4);
  await page.screenshot({ path: join(shots, 'drafts-binary-refused.png') });
  assert.deepEqual(page.errors, []);
});

test('storage that is unavailable or full shows a warning, and the page still works', { skip }, async () => {
  // A private window where storage throws.
  const page = await b.page();
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('The operation is insecure.', 'SecurityError'); } });
  });
  await page.goto(b.base);
  await ready(page);
  assert.ok(await page.isVisible('#storage-warning'));
  assert.match(await page.textContent('#storage-warning'), /does not let the page keep drafts.*Save the program as a file \(Ctrl\+S\)/);
  await replaceProgram(page, A);
  assertReads(await readings(page), A);
  await page.selectOption('#sample', 'mlp');
  await ready(page);
  assert.deepEqual((await draftList(page)).map((d) => d.title).slice(1), ['# my own net'], 'drafts still work for this visit');
  await page.screenshot({ path: join(shots, 'storage-unavailable.png') });

  // Storage that fills up while typing: the warning comes, and goes once
  // a write succeeds again.
  const full = await b.page();
  await full.addInitScript(() => {
    const set = Storage.prototype.setItem;
    Storage.prototype.setItem = function (k, v) {
      if (window.__full) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return set.call(this, k, v);
    };
  });
  await full.goto(b.base);
  await ready(full);
  assert.ok(await full.isHidden('#storage-warning'), 'no warning while storage works');
  await full.evaluate(() => { window.__full = true; });
  await replaceProgram(full, A);
  assert.ok(await full.isVisible('#storage-warning'));
  assert.match(await full.textContent('#storage-warning'), /storage for this page is full/);
  assert.equal(await editorText(full), A, 'the text typed is still there');
  await full.screenshot({ path: join(shots, 'storage-full.png') });
  await full.evaluate(() => { window.__full = false; });
  await full.keyboard.type('# more');
  await ready(full);
  assert.ok(await full.isHidden('#storage-warning'));
  await full.reload();
  await ready(full);
  assert.equal(await editorText(full), A + '# more', 'once storage works, the draft is kept');
});

test('the one program an older page kept becomes a draft', { skip }, async () => {
  const page = await b.page();
  await page.goto(b.base);
  await ready(page);
  await page.evaluate((program) => {
    localStorage.clear();
    localStorage.setItem('topos-playground:program', program);
  }, A);
  await page.goto(b.base + 'index.html');
  await ready(page);
  assert.equal(await editorText(page), A);
  assert.deepEqual((await draftList(page)).map((d) => d.title), ['# my own net']);
  assert.equal(await page.evaluate(() => localStorage.getItem('topos-playground:program')), null);
});

test('two tabs on one draft: a tab that did not change it follows, read-only; edits in both keep both texts', { skip }, async () => {
  const one = await b.page();
  await one.goto(b.base);
  await ready(one);
  await replaceProgram(one, A);
  const two = await one.context().newPage();
  await two.goto(b.base + 'index.html');   // no hash: the same current draft
  await ready(two);
  assert.equal(await editorText(two), A);

  // Typed in the second tab only: the first follows.
  await two.click('#editor .cm-content');
  await two.keyboard.press('Control+End');
  await two.keyboard.type('# two');
  await ready(two);
  await one.waitForFunction(() => [...document.querySelectorAll('#editor .cm-line')].map((l) => l.textContent).join('\n').endsWith('# two'));
  assert.equal(await editorText(one), A + '# two');
  assert.equal((await draftList(one)).length, 1, 'no copy when only one tab changed it');
  assert.ok(await one.isVisible('#follow-note'), 'the tab that follows is read-only, and says so');
  await one.click('#drafts-close');

  // Both change it at once (the second tab's write crosses this tab's
  // edit: its storage event says it started from a text this tab no longer
  // has): this tab's text is kept as a new draft.
  await two.close();
  await one.waitForSelector('#follow-note', { state: 'hidden' });   // the tab that changed it left
  await one.click('#editor .cm-content');
  await one.keyboard.press('Control+End');
  await one.keyboard.type(' + one');
  await ready(one);
  await one.evaluate(([before, theirs]) => {
    const id = JSON.parse(localStorage.getItem('topos-playground:drafts')).current;
    const key = `topos-playground:draft:${id}`;
    localStorage.setItem(key, theirs);
    window.dispatchEvent(new StorageEvent('storage', { key, oldValue: before, newValue: theirs, storageArea: localStorage }));
  }, [A + '# two', A + '# two + two']);
  await one.waitForFunction(() => /changed in another tab/.test(document.querySelector('#notice').textContent));
  assert.equal(await editorText(one), A + '# two + one', 'this tab keeps its text');
  assert.equal((await draftList(one)).length, 2, 'both texts are drafts');
  await one.screenshot({ path: join(shots, 'drafts-two-tabs.png') });
  // Both survive a reload.
  await one.reload();
  await ready(one);
  assert.equal(await editorText(one), A + '# two + one');
  const texts = [];
  for (let i = 0; i < 2; i++) {
    await draftList(one);
    await row(one, '# my own net').nth(i).locator('.draft-open').click();
    await ready(one);
    texts.push(await editorText(one));
  }
  assert.deepEqual(texts.sort(), [A + '# two + one', A + '# two + two'].sort());
});
