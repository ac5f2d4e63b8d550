// What a screen reader hears as one types: nothing on each key; once
// typing has paused for PAUSE_MS and the readings are current, one
// sentence, the engine's (the JSON's announcement: the program reads,
// with its summary's first line, or the first diagnostic), and only when
// it differs from the last one said.

export const PAUSE_MS = 1200;

export class Announcer {
  constructor(el, pause = PAUSE_MS) {
    this.el = el;
    this.pause = pause;
    this.lastKey = -Infinity;
    this.pending = null;   // the sentence for the readings shown
    this.said = el.textContent;
    this.timer = null;
  }

  // A key (an edit or a choice): the announcement waits for the pause.
  typed() {
    this.lastKey = performance.now();
    this.schedule();
  }

  // The readings now shown say this.
  result(sentence) {
    this.pending = sentence;
    this.schedule();
  }

  schedule() {
    if (this.timer !== null) clearTimeout(this.timer);
    const wait = Math.max(0, this.lastKey + this.pause - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.pending === null || this.pending === this.said) return;
      this.el.textContent = this.said = this.pending;
    }, wait);
  }
}
