// "Report a problem" on a photo of the panel (`POST /photos/{photoID}/feedback`): the
// place it was taken (drag the orange pin on the map, or type the coordinates), the
// year, the turn that makes it upright, or anything else in words. One form is open at a
// time. The form tells tests what it did: data-state ("ready", "sending", "sent",
// "error") and data-feedback-id once sent; the pin's element is `.report-pin`.

import { ApiError, call, session } from './api.js';
import { openAccountDialog } from './account.js';
import { announce, el } from './dom.js';

const kinds = [
  { kind: 'location', label: 'Wrong place' },
  { kind: 'date', label: 'Wrong year' },
  { kind: 'rotation', label: 'Sideways' },
  { kind: 'other', label: 'Something else' },
];

/** The years a date may name, as the server checks them. */
const years = { min: 1800, max: 2025 };

let map = null;
/** The open form's way to close itself. */
let closeOpenForm = null;

/** Gives the reports the map their pin is dragged on. */
export function setUpReports(leafletMap) {
  map = leafletMap;
}

/** Six decimals, as the API writes coordinates. */
const round = (degrees) => Number(degrees.toFixed(6));

/** A labelled number input. */
function numberField(label, attributes) {
  const input = el('input', { type: 'number', inputmode: 'decimal', required: true, ...attributes });
  return [el('label', { class: 'report-field' }, [label, input]), input];
}

/** The place section: the pin on the map and the two coordinates it keeps in step. */
function placeSection(photo, where) {
  const [latitudeLabel, latitude] = numberField('Latitude', { step: 'any', min: -90, max: 90, value: where.latitude });
  const [longitudeLabel, longitude] = numberField('Longitude', { step: 'any', min: -180, max: 180, value: where.longitude });
  let pin = null;
  const section = el('div', { class: 'report-kind', dataset: { kind: 'location' } }, [
    el('p', { class: 'report-hint', text: 'Drag the orange pin on the map to where the photo was taken.' }),
    el('div', { class: 'report-coordinates' }, [latitudeLabel, longitudeLabel]),
  ]);
  const follow = () => {
    const at = pin.getLatLng();
    latitude.value = String(round(at.lat));
    longitude.value = String(round(at.lng));
  };
  const moveTo = () => {
    const at = [Number(latitude.value), Number(longitude.value)];
    if (pin && at.every(Number.isFinite)) pin.setLatLng(at);
  };
  latitude.addEventListener('change', moveTo);
  longitude.addEventListener('change', moveTo);
  return {
    section,
    show() {
      if (pin || !map) return;
      const icon = L.divIcon({ className: 'report-pin', html: el('span'), iconSize: [30, 30], iconAnchor: [15, 30] });
      pin = L.marker([where.latitude, where.longitude], {
        icon, draggable: true, autoPan: true, zIndexOffset: 1000, title: `Where ${photo.title || 'the photo'} was taken`,
      });
      pin.on('drag', follow);
      pin.on('dragend', follow);
      pin.addTo(map);
      pin.getElement().setAttribute('aria-label', 'The place you suggest: drag it, or type the coordinates in the panel');
      moveTo();
    },
    hide() {
      pin?.remove();
      pin = null;
    },
    body: () => ({ latitude: Number(latitude.value), longitude: Number(longitude.value) }),
  };
}

/** The year section. */
function dateSection() {
  const [label, year] = numberField('Year it was taken', { min: years.min, max: years.max, step: 1, inputmode: 'numeric' });
  return {
    section: el('div', { class: 'report-kind', dataset: { kind: 'date' } }, [label]),
    body: () => ({ year: Number(year.value) }),
  };
}

/** The rotation section: the photo, turned a quarter clockwise at each press (`turned` runs then). */
function rotationSection(photo, turned) {
  let degrees = 0;
  const preview = el('img', {
    class: 'report-preview', src: `${photo.imageURL}?size=thumb`, alt: 'The photo as you turn it', referrerpolicy: 'no-referrer',
  });
  preview.addEventListener('error', () => preview.classList.add('thumb-missing'), { once: true });
  const said = el('output', { class: 'report-turn', text: 'Not turned yet.' });
  const turn = el('button', { type: 'button', class: 'plain', text: 'Turn ↻' });
  turn.addEventListener('click', () => {
    degrees = (degrees + 90) % 360;
    preview.style.transform = `rotate(${degrees}deg)`;
    said.textContent = degrees === 0 ? 'Not turned yet.' : `Turned ${degrees}° clockwise.`;
    turned();
  });
  return {
    section: el('div', { class: 'report-kind', dataset: { kind: 'rotation' } }, [
      el('p', { class: 'report-hint', text: 'Turn it until it is upright.' }), preview, turn, said,
    ]),
    check: () => (degrees === 0 ? 'Turn the photo until it is upright first.' : null),
    body: () => ({ degrees }),
  };
}

/** The words section. */
function otherSection() {
  const text = el('textarea', { rows: 4, maxlength: 1000, required: true });
  return {
    section: el('div', { class: 'report-kind', dataset: { kind: 'other' } }, [
      el('label', { class: 'report-field' }, ['Tell us what is wrong', text]),
    ]),
    body: () => ({ text: text.value }),
  };
}

/** The form for `photo`, taken at `where`; `close` removes it. */
function reportForm(photo, where, close) {
  const error = el('p', { class: 'error', role: 'alert' });
  const sections = {
    location: placeSection(photo, where),
    date: dateSection(),
    rotation: rotationSection(photo, () => { error.textContent = ''; }),
    other: otherSection(),
  };
  const name = `report-kind-${photo.photoID}`;
  const choices = el('fieldset', { class: 'report-kinds' }, [
    el('legend', { text: 'What is wrong?' }),
    ...kinds.map(({ kind, label }) => el('label', {}, [
      el('input', { type: 'radio', name, value: kind, required: true }), ` ${label}`,
    ])),
  ]);
  const send = el('button', { type: 'submit', text: 'Send' });
  const cancel = el('button', { type: 'button', class: 'plain', text: 'Cancel', on: { click: close } });
  const form = el('form', { class: 'report', dataset: { state: 'ready' } }, [
    choices, ...Object.values(sections).map(({ section }) => section), error,
    el('div', { class: 'dialog-buttons' }, [send, cancel]),
  ]);
  const chosen = () => form.querySelector(`input[name="${name}"]:checked`)?.value;
  const show = () => {
    for (const [kind, part] of Object.entries(sections)) {
      const active = kind === chosen();
      part.section.hidden = !active;
      part.section.querySelectorAll('input, textarea').forEach((input) => { input.disabled = !active; });
      if (active) part.show?.();
      else part.hide?.();
    }
  };
  choices.addEventListener('change', show);
  show();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    const kind = chosen();
    const refusal = sections[kind]?.check?.();
    if (refusal) {
      error.textContent = refusal;
      return;
    }
    send.disabled = true;
    form.dataset.state = 'sending';
    try {
      const body = { kind, ...sections[kind].body() };
      const feedback = await call('POST', `/photos/${encodeURIComponent(photo.photoID)}/feedback`, { body, signedIn: true });
      sections.location.hide();
      form.dataset.feedbackId = feedback.feedbackID;
      form.dataset.state = 'sent';
      form.replaceChildren(el('p', { class: 'report-sent', text: 'Thank you: a moderator will look at it.' }));
      announce('Your report was sent.');
    } catch (failure) {
      if (!(failure instanceof ApiError)) throw failure;
      form.dataset.state = 'error';
      error.textContent = failure.message;
    } finally {
      send.disabled = false;
    }
  });
  form.dispose = () => sections.location.hide();
  return form;
}

/**
 * The "Report a problem" button of `photo` (a PhotoSummary) taken at `where`
 * (`{latitude, longitude}`, its location), and the container its form opens in.
 */
export function reportControls(photo, where) {
  const container = el('div', { class: 'report-container' });
  const button = el('button', { type: 'button', class: 'plain', 'aria-expanded': 'false', text: 'Report a problem' });
  const close = () => {
    container.firstChild?.dispose?.();
    container.replaceChildren();
    button.setAttribute('aria-expanded', 'false');
    if (closeOpenForm === close) closeOpenForm = null;
  };
  button.addEventListener('click', () => {
    if (!session.signedIn) {
      openAccountDialog();
      return;
    }
    // A second press closes the form; after a report was sent, it opens a new one.
    const shown = container.firstChild;
    if (shown) close();
    if (shown && shown.dataset.state !== 'sent') return;
    closeOpenForm?.();
    container.append(reportForm(photo, where, close));
    button.setAttribute('aria-expanded', 'true');
    closeOpenForm = close;
    container.querySelector('input')?.focus();
  });
  return { button, container, close };
}

/** Closes the open form, if any (its panel closed or changed). */
export function closeReport() {
  closeOpenForm?.();
}
