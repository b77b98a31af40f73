// What the clients of one case saw: answers, clear errors, wrong answers and requests never answered.
const KEEP = 3;

export class Tally {
  requests = 0;
  answers = 0;
  errors = 0;
  wrong = 0;
  lost = 0;
  examples = { errors: [], wrong: [], lost: [] };

  answer() {
    this.answers++;
  }

  /** A clear error (a JSON-RPC error, a busy status): not a wrong answer. */
  error(detail) {
    this.errors++;
    this.#keep('errors', detail);
  }

  /** An answer that is not what the request asked for (bytes, id, code). */
  bad(detail) {
    this.wrong++;
    this.#keep('wrong', detail);
  }

  /** A request with no answer at all (timeout, dropped connection). */
  missing(detail) {
    this.lost++;
    this.#keep('lost', detail);
  }

  /** Short texts of the first few errors, wrong and lost answers, for the notes. */
  summary() {
    return Object.entries(this.examples)
      .filter(([, list]) => list.length > 0)
      .map(([kind, list]) => `${kind}: ${list.join('; ')}`)
      .join(' | ');
  }

  #keep(kind, detail) {
    const list = this.examples[kind];
    const text = String(detail).replace(/\s+/g, ' ').slice(0, 160);
    if (list.length < KEEP && !list.includes(text)) list.push(text);
  }
}

/** Sorts one HTTP answer of a JSON-RPC request into the tally; `check(answer)` says what is wrong. */
export function judge(tally, res, id, check) {
  const answer = res.answer;
  if (answer === undefined) {
    if (res.status >= 500 || res.status === 429 || res.status === 408)
      return tally.error(`HTTP ${res.status}`);
    return tally.bad(`HTTP ${res.status} without a JSON-RPC answer: ${res.text.slice(0, 80)}`);
  }
  if (answer.id !== id) return tally.bad(`id ${JSON.stringify(answer.id)} for request ${id}`);
  if (answer.error) return tally.error(`${answer.error.code} ${answer.error.message}`);
  const problem = check(answer);
  if (problem) return tally.bad(problem);
  tally.answer();
}
