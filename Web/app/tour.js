// "Tour from here": `GET /tours` from the map's centre, with the filters in force, drawn
// as a numbered line through its stops and listed in the panel. The map element tells
// tests what it drew: data-tour-query and data-tour-stops.

import { get, pathWithQuery } from './api.js';
import { announce, el, formatDistance, plural } from './dom.js';
import { filterParameters } from './filters.js';
import { labelledMarker } from './markers.js';
import { closePanel, showPanel } from './panel.js';

export class Tour {
  constructor(map, { onLocation }) {
    this.map = map;
    this.onLocation = onLocation;
    this.layer = L.layerGroup();
  }

  async start() {
    const center = this.map.getCenter();
    const parameters = { lat: center.lat.toFixed(6), lon: center.lng.toFixed(6), ...filterParameters() };
    const element = this.map.getContainer();
    let tour;
    try {
      tour = await get('/tours', parameters);
    } catch (error) {
      announce(`No tour: ${error.message}`);
      return;
    }
    this.draw(tour);
    element.dataset.tourQuery = pathWithQuery('/tours', parameters);
    element.dataset.tourStops = String(tour.stops.length);
    this.list(tour);
  }

  clear() {
    const element = this.map.getContainer();
    this.layer.clearLayers();
    this.layer.remove();
    delete element.dataset.tourStops;
    delete element.dataset.tourQuery;
  }

  draw(tour) {
    this.clear();
    const start = [tour.start.latitude, tour.start.longitude];
    const points = [start, ...tour.stops.map((stop) => [stop.latitude, stop.longitude])];
    this.layer.addLayer(L.polyline(points, { className: 'tour-line', weight: 4 }));
    this.layer.addLayer(L.circleMarker(start, { className: 'tour-start', radius: 7 }).bindTooltip('Start'));
    tour.stops.forEach((stop, index) => {
      this.layer.addLayer(labelledMarker([stop.latitude, stop.longitude], {
        className: 'tour-stop',
        text: String(index + 1),
        label: `Stop ${index + 1}: ${stop.intersection || stop.locationID}, ${plural(stop.photoCount, 'photo')}`,
        size: 26,
        choose: () => this.onLocation(stop.locationID),
        zIndexOffset: 1000,
      }));
    });
    this.layer.addTo(this.map);
    if (tour.stops.length > 0) this.map.fitBounds(L.latLngBounds(points).pad(0.15), { animate: false });
  }

  list(tour) {
    const content = tour.stops.length === 0
      ? el('p', { text: 'No place with enough photos is within reach of here. Try another spot, or fewer filters.' })
      : el('div', {}, [
        el('p', {
          class: 'summary',
          text: `${plural(tour.stops.length, 'stop')}, ${formatDistance(tour.distanceMeters)}, about ${Math.round(tour.durationMinutes)} minutes, ${plural(tour.photoCount, 'photo')}.`,
        }),
        el('ol', { class: 'stops' }, tour.stops.map((stop) => el('li', {}, [
          el('button', {
            type: 'button',
            class: 'link-button',
            text: stop.intersection || stop.locationID,
            on: { click: () => this.onLocation(stop.locationID) },
          }),
          el('span', { class: 'stop-meta', text: ` ${formatDistance(stop.legMeters)} on, ${plural(stop.photoCount, 'photo')}` }),
        ]))),
      ]);
    const clear = el('button', { type: 'button', class: 'secondary', text: 'Clear the tour', on: { click: () => closePanel() } });
    // The line stays while the stops' photos are looked at; closing the tour's own view clears it.
    showPanel('Tour from here', el('div', {}, [content, clear]), {
      kind: 'tour',
      closed: (replaced) => {
        if (!replaced) this.clear();
      },
    });
    announce(`A tour of ${plural(tour.stops.length, 'stop')}.`);
  }
}
