// The moderation page at /moderation: the queue of feedback (`GET /feedback`, oldest
// first, by status and kind, a page at a time), and the feedback chosen from it beside
// its photo and, on a map, the photo's place in the catalog with the place suggested;
// Accept or Reject decides it (`POST /feedback/{feedbackID}/decision`). Only a
// moderator's token lists the queue: anyone else (`GET /users/me` says their role) is
// told so.
//
// For tests, the queue tells what it shows: data-state ("loading", "ready", "error",
// "forbidden") and data-count; the review its data-feedback-id, and its map the
// markers it drew (data-markers).

import { ApiError, call, get, isAbort, session } from './api.js';
import { drawBase } from './base-map.js';
import { announce, el, formatDistance } from './dom.js';

const pageSize = 20;
const forbidden = 'Only moderators can see the queue. The server’s operator names them (past-nyc moderators add).';
const kindNames = { location: 'Place', date: 'Year', rotation: 'Rotation', other: 'Other' };
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const queue = document.getElementById('queue');
const queuePane = document.getElementById('queue-pane');
const queueMessage = document.getElementById('queue-message');
const more = document.getElementById('queue-more');
const status = document.getElementById('queue-status');
const kind = document.getElementById('queue-kind');
const review = document.getElementById('review');
const reviewMapElement = document.getElementById('review-map');
const reviewError = document.getElementById('review-error');
const signIn = document.getElementById('sign-in');

let cursor = null;
let loading = null;
let chosen = null;
let reviewMap = null;
let reviewLayer = null;

/** Great-circle distance in metres, as the API measures it. */
function distance(a, b) {
  const radians = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * radians;
  const dLon = (b.longitude - a.longitude) * radians;
  const h = Math.sin(dLat / 2) ** 2
    + Math.cos(a.latitude * radians) * Math.cos(b.latitude * radians) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

/** What the feedback suggests, in words. */
function suggestion(feedback) {
  switch (feedback.kind) {
    case 'location': return `${feedback.latitude}, ${feedback.longitude}`;
    case 'date': return String(feedback.year);
    case 'rotation': return `turn ${feedback.degrees}° clockwise`;
    default: return feedback.text;
  }
}

function showSignIn() {
  queuePane.hidden = true;
  review.hidden = true;
  signIn.hidden = false;
  document.getElementById('moderator-name').textContent = '';
  document.getElementById('sign-in-username').focus();
}

/** Lists the queue from its start with the filters chosen. */
async function reload() {
  cursor = null;
  queue.replaceChildren();
  closeReview();
  await loadPage();
}

async function loadPage() {
  const controller = new AbortController();
  loading?.abort();
  loading = controller;
  queue.dataset.state = 'loading';
  more.disabled = true;
  try {
    const page = await call('GET', '/feedback', {
      parameters: { status: status.value, kind: kind.value, limit: pageSize, cursor }, signedIn: true, signal: controller.signal,
    });
    if (controller.signal.aborted) return;
    queue.append(...page.feedback.map(queueItem));
    cursor = page.nextCursor;
    more.hidden = cursor === null;
    queue.dataset.count = String(queue.children.length);
    queueMessage.textContent = queue.children.length === 0 ? 'Nothing here: the queue is empty.' : '';
    queue.dataset.state = 'ready';
  } catch (failure) {
    if (isAbort(failure)) return;
    if (!(failure instanceof ApiError)) throw failure;
    if (failure.status === 401) {
      showSignIn();
      return;
    }
    queue.dataset.state = failure.status === 403 ? 'forbidden' : 'error';
    queueMessage.textContent = failure.status === 403 ? forbidden : `The queue could not load: ${failure.message}`;
  } finally {
    more.disabled = false;
  }
}

function queueItem(feedback) {
  const button = el('button', {
    type: 'button',
    dataset: { feedbackId: feedback.feedbackID },
    on: { click: () => choose(feedback, button) },
  }, [
    el('span', { class: 'queue-kind', text: `${kindNames[feedback.kind]}: ` }),
    el('span', { text: suggestion(feedback) }),
    el('span', { class: 'queue-meta', text: `${feedback.photoID}, ${dateFormat.format(new Date(feedback.createdAt))}, ${feedback.status}` }),
  ]);
  return el('li', {}, [button]);
}

function closeReview() {
  review.hidden = true;
  chosen = null;
  delete review.dataset.feedbackId;
}

/** The map of the review, made once it is first shown (Leaflet measures its element). */
function mapOfReview() {
  if (reviewMap) return reviewMap;
  reviewMap = L.map(reviewMapElement, { zoomSnap: 1, maxZoom: 19, zoomAnimation: false, fadeAnimation: false });
  reviewMap.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
  reviewLayer = L.layerGroup().addTo(reviewMap);
  drawBase(reviewMap).catch((error) => announce(`The city's outline could not load: ${error.message}`));
  return reviewMap;
}

function marker(at, className, label) {
  const icon = L.divIcon({ className, html: el('span'), iconSize: [22, 22], iconAnchor: [11, 11] });
  const made = L.marker([at.latitude, at.longitude], { icon, title: label, keyboard: false });
  made.on('add', () => made.getElement().setAttribute('aria-label', label));
  return made;
}

function fact(term, value) {
  return [el('dt', { text: term }), el('dd', { text: value })];
}

async function choose(feedback, button) {
  queue.querySelectorAll('button[aria-current]').forEach((other) => other.removeAttribute('aria-current'));
  button.setAttribute('aria-current', 'true');
  chosen = { feedback, button };
  reviewError.textContent = '';
  review.hidden = false;
  review.dataset.feedbackId = feedback.feedbackID;
  document.getElementById('review-title').textContent = `${kindNames[feedback.kind]} of ${feedback.photoID}`;
  document.getElementById('review-decision').hidden = feedback.status !== 'open';
  let photo;
  try {
    photo = await get(`/photos/${encodeURIComponent(feedback.photoID)}`);
  } catch (failure) {
    reviewError.textContent = `The photo could not load: ${failure.message}`;
    return;
  }
  if (chosen?.feedback !== feedback) return;
  const image = document.getElementById('review-image');
  image.src = `${photo.imageURL}?size=thumb`;
  image.alt = `Photo: ${photo.title || 'untitled'}`;
  image.style.transform = feedback.kind === 'rotation' ? `rotate(${feedback.degrees}deg)` : '';
  document.getElementById('review-photo-title').textContent = photo.title || 'Untitled';
  document.getElementById('review-photo-date').textContent = photo.date || 'Undated';

  const here = { latitude: photo.latitude, longitude: photo.longitude };
  const facts = [...fact('Suggested', suggestion(feedback))];
  if (feedback.kind === 'location') facts.push(...fact('Moves it', formatDistance(distance(here, feedback))));
  if (feedback.kind === 'date') facts.push(...fact('The catalog says', photo.date || 'undated'));
  facts.push(...fact('Catalog place', photo.intersection || photo.locationID), ...fact('Sent', dateFormat.format(new Date(feedback.createdAt))));
  if (feedback.decidedAt) facts.push(...fact(feedback.status === 'accepted' ? 'Accepted' : 'Rejected', dateFormat.format(new Date(feedback.decidedAt))));
  document.getElementById('review-facts').replaceChildren(...facts);

  const map = mapOfReview();
  map.invalidateSize();
  reviewLayer.clearLayers();
  const points = [[here.latitude, here.longitude]];
  reviewLayer.addLayer(marker(here, 'review-current', 'The photo’s place in the catalog'));
  if (feedback.kind === 'location') {
    points.push([feedback.latitude, feedback.longitude]);
    reviewLayer.addLayer(L.polyline(points, { className: 'review-move', weight: 3, interactive: false }));
    reviewLayer.addLayer(marker(feedback, 'review-suggested', 'The place suggested'));
  }
  map.fitBounds(L.latLngBounds(points).pad(0.4), { animate: false, maxZoom: 17 });
  reviewMapElement.dataset.markers = String(points.length);
  document.getElementById('review-title').focus({ preventScroll: true });
}

async function decide(accept) {
  if (!chosen) return;
  const { feedback, button } = chosen;
  reviewError.textContent = '';
  try {
    const decided = await call('POST', `/feedback/${encodeURIComponent(feedback.feedbackID)}/decision`, {
      body: { accept }, signedIn: true,
    });
    button.closest('li').remove();
    queue.dataset.count = String(queue.children.length);
    closeReview();
    announce(decided.status === 'accepted'
      ? (decided.kind === 'other' ? 'Accepted.' : 'Accepted: the catalog shows it within seconds.')
      : 'Rejected.');
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    reviewError.textContent = failure.message;
  }
}

/** Lists the queue for a moderator; tells anyone else why there is none. */
async function start() {
  signIn.hidden = true;
  queuePane.hidden = false;
  document.getElementById('moderator-name').textContent = session.username ? `Signed in as ${session.username}` : '';
  let user;
  try {
    user = await call('GET', '/users/me', { signedIn: true });
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    if (failure.status === 401) showSignIn();
    else queueMessage.textContent = `Your account could not load: ${failure.message}`;
    return;
  }
  if (user.role !== 'moderator') {
    queue.dataset.state = 'forbidden';
    queueMessage.textContent = forbidden;
    return;
  }
  await reload();
}

signIn.addEventListener('submit', async (event) => {
  event.preventDefault();
  const error = document.getElementById('sign-in-error');
  error.textContent = '';
  const credentials = {
    username: document.getElementById('sign-in-username').value.trim(),
    password: document.getElementById('sign-in-password').value,
  };
  try {
    const answer = await call('POST', '/users/login', { body: credentials });
    session.start(answer.token, answer.user.username);
    await start();
  } catch (failure) {
    if (!(failure instanceof ApiError)) throw failure;
    error.textContent = failure.message;
  }
});
status.addEventListener('change', reload);
kind.addEventListener('change', reload);
more.addEventListener('click', loadPage);
document.getElementById('accept').addEventListener('click', () => decide(true));
document.getElementById('reject').addEventListener('click', () => decide(false));
document.getElementById('queue-filters').addEventListener('submit', (event) => event.preventDefault());

if (session.signedIn) start();
else showSignIn();
