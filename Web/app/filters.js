// The year range and the topic: one set of filters that every layer, the search, the
// tour and the location panel apply (`from`, `to`, `topic` of the API).

import { ApiError, get } from './api.js';
import { debounce, el, formatCount } from './dom.js';

const fromInput = document.getElementById('year-from');
const toInput = document.getElementById('year-to');
const topicPicker = document.getElementById('topic-picker');
const topicSelect = document.getElementById('topic');
const message = document.getElementById('filter-message');

let applied = {};
const listeners = new Set();

/** A year field's value: a whole number, or undefined when empty; NaN when not a year. */
function year(input) {
  const text = input.value.trim();
  if (text === '') return undefined;
  return /^-?\d{1,4}$/.test(text) ? Number(text) : NaN;
}

function readFilters() {
  const from = year(fromInput);
  const to = year(toInput);
  if (Number.isNaN(from) || Number.isNaN(to)) return { error: 'A year is a whole number, such as 1910.' };
  if (from !== undefined && to !== undefined && from > to) return { error: `“From” ${from} is after “to” ${to}.` };
  return { filters: { from, to, topic: topicPicker.hidden ? undefined : topicSelect.value || undefined } };
}

function apply() {
  const { filters, error } = readFilters();
  fromInput.setAttribute('aria-invalid', String(Boolean(error)));
  toInput.setAttribute('aria-invalid', String(Boolean(error)));
  message.textContent = error || '';
  if (error || JSON.stringify(filters) === JSON.stringify(applied)) return;
  applied = filters;
  listeners.forEach((listener) => listener());
}

/** The query parameters of the filters in force (only those set). */
export function filterParameters() {
  return { ...applied };
}

/** Calls `listener` whenever the filters change. */
export function onFiltersChange(listener) {
  listeners.add(listener);
}

/**
 * Wires the fields and fills the topic picker from `GET /topics`. The picker stays
 * hidden when the server has no topics (a 404 from a server without them) or cannot say.
 */
export async function setUpFilters() {
  const later = debounce(apply, 400);
  for (const input of [fromInput, toInput]) {
    input.addEventListener('input', later);
    input.addEventListener('change', apply);
  }
  topicSelect.addEventListener('change', apply);
  try {
    const { topics } = await get('/topics');
    if (!Array.isArray(topics) || topics.length === 0) return;
    for (const topic of topics) {
      topicSelect.append(el('option', { value: topic.name, text: `${topic.name} (${formatCount(topic.photoCount)})` }));
    }
    topicPicker.hidden = false;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
}
