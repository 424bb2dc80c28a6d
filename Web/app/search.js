// The search box: a combobox (WAI-ARIA Authoring Practices, "list autocomplete") over
// `GET /search?q=` as the user types (debounced; the last word matches as a prefix),
// with the filters in force. Arrow keys move through the results, Enter opens the
// chosen photo's place, Escape closes the list (and a second Escape clears the box).
// The list tells tests what it shows: data-query (the request drawn).

import { ApiError, get, isAbort, pathWithQuery } from './api.js';
import { announce, debounce, el } from './dom.js';
import { filterParameters, onFiltersChange } from './filters.js';
import { photoTitle } from './titles.js';

const input = document.getElementById('search-input');
const list = document.getElementById('search-results');

const resultCount = 8;

export class Search {
  /** `onChoose(result)` receives the chosen PlacedPhoto. */
  constructor({ onChoose }) {
    this.onChoose = onChoose;
    this.results = [];
    this.active = -1;
    this.controller = null;
    const later = debounce(() => this.ask(), 200);
    input.addEventListener('input', later);
    input.addEventListener('keydown', (event) => this.key(event));
    input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
    onFiltersChange(() => { if (!list.hidden) this.ask(); });
  }

  async ask() {
    const q = input.value.trim();
    this.controller?.abort();
    if (q.length < 2) {
      this.close();
      return;
    }
    const controller = new AbortController();
    this.controller = controller;
    const parameters = { q, limit: resultCount, ...filterParameters() };
    try {
      const answer = await get('/search', parameters, controller.signal);
      if (controller.signal.aborted) return;
      this.show(answer.results, pathWithQuery('/search', parameters), answer.total);
    } catch (error) {
      if (isAbort(error)) return;
      // A query of punctuation alone has no word: a 400, which is just "nothing found".
      if (error instanceof ApiError && error.status === 400) {
        this.show([], pathWithQuery('/search', parameters), 0);
      } else {
        this.close();
        announce(`The search failed: ${error.message}`);
      }
    }
  }

  show(results, query, total) {
    this.results = results;
    this.active = -1;
    list.dataset.query = query;
    list.dataset.total = String(total);
    list.replaceChildren(...(results.length
      ? results.map((result, index) => el('li', {
        id: `search-result-${index}`,
        role: 'option',
        'aria-selected': 'false',
        dataset: { photoId: result.photoID, locationId: result.locationID },
        on: { mousedown: (event) => { event.preventDefault(); this.choose(index); } },
      }, [
        el('span', { class: 'result-title', text: photoTitle(result) }),
        el('span', { class: 'result-meta', text: [result.date, result.intersection, result.borough].filter(Boolean).join(' · ') }),
      ]))
      : [el('li', { class: 'no-result', role: 'option', 'aria-disabled': 'true', text: 'No photo matches.' })]));
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    input.removeAttribute('aria-activedescendant');
  }

  close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    this.active = -1;
  }

  move(step) {
    if (this.results.length === 0) return;
    if (list.hidden) {
      list.hidden = false;
      input.setAttribute('aria-expanded', 'true');
    }
    this.active = (this.active + step + this.results.length) % this.results.length;
    [...list.children].forEach((option, index) => option.setAttribute('aria-selected', String(index === this.active)));
    const option = list.children[this.active];
    input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  }

  key(event) {
    switch (event.key) {
      case 'ArrowDown': this.move(1); break;
      case 'ArrowUp': this.move(-1); break;
      case 'Enter':
        if (list.hidden || this.results.length === 0) return;
        this.choose(this.active >= 0 ? this.active : 0);
        break;
      case 'Escape':
        if (list.hidden) input.value = '';
        this.close();
        break;
      default: return;
    }
    event.preventDefault();
  }

  choose(index) {
    const result = this.results[index];
    if (!result) return;
    this.close();
    this.onChoose(result);
  }
}
