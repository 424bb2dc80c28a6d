// "My walks": the signed-in user's walks (`GET /walks`) listed in the panel; choosing
// one replays its route (`GET /walks/{walkID}/route`) as a line from its first point
// to its last. The map element tells tests what it drew: data-walk-points.

import { call } from './api.js';
import { announce, el, formatDistance, plural } from './dom.js';
import { showPanel } from './panel.js';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export class Walks {
  constructor(map) {
    this.map = map;
    this.layer = L.layerGroup();
    document.getElementById('walks-button').addEventListener('click', () => this.list());
  }

  async list() {
    let walks;
    try {
      ({ walks } = await call('GET', '/walks', { parameters: { limit: 50 }, signedIn: true }));
    } catch (error) {
      announce(`Your walks could not load: ${error.message}`);
      return;
    }
    const content = walks.length === 0
      ? el('p', { text: 'No walk yet: walks are recorded by the phone app as you walk.' })
      : el('ul', { class: 'walks' }, walks.map((walk) => el('li', {}, [
        el('button', {
          type: 'button',
          class: 'link-button',
          dataset: { walkId: walk.walkID },
          text: dateFormat.format(new Date(walk.startedAt)),
          on: { click: () => this.replay(walk.walkID) },
        }),
        el('span', { class: 'stop-meta', text: ` ${formatDistance(walk.distanceMeters)}, ${plural(walk.photoCount, 'photo')}` }),
      ])));
    showPanel('My walks', content, {
      kind: 'walks',
      closed: (replaced) => { if (!replaced) this.clear(); },
    });
  }

  async replay(walkID) {
    let route;
    try {
      route = await call('GET', `/walks/${encodeURIComponent(walkID)}/route`, { signedIn: true });
    } catch (error) {
      announce(`The walk could not load: ${error.message}`);
      return;
    }
    this.clear();
    const points = route.points.map((point) => [point.latitude, point.longitude]);
    if (points.length > 0) {
      this.layer.addLayer(L.polyline(points, { className: 'walk-line', weight: 4 }));
      this.layer.addLayer(L.circleMarker(points[0], { className: 'walk-start', radius: 6 }).bindTooltip('Start'));
      this.layer.addLayer(L.circleMarker(points[points.length - 1], { className: 'walk-end', radius: 6 }).bindTooltip('End'));
      this.layer.addTo(this.map);
      this.map.fitBounds(L.latLngBounds(points).pad(0.2), { animate: false, maxZoom: 17 });
    }
    this.map.getContainer().dataset.walkPoints = String(points.length);
    announce(points.length === 0 ? 'This walk has no point yet.' : `The walk: ${plural(points.length, 'point')}.`);
  }

  clear() {
    this.layer.clearLayers();
    this.layer.remove();
    delete this.map.getContainer().dataset.walkPoints;
  }
}
