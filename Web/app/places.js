// The photographed places on the map: zoomed out, `/clusters` of the visible box with
// their photo counts; from `pinZoom` in, `/region`'s locations as pins. Every move or
// filter change asks again (an answer that a newer request replaced is dropped).
//
// For tests and tools, the map element tells what it shows: data-state ("loading",
// "ready", "error"), data-layer ("clusters" or "pins"), data-query (the request drawn),
// data-markers and data-photos (how many markers, and their photos in all).

import { get, isAbort, pathWithQuery } from './api.js';
import { announce, formatCount, plural, reducedMotion } from './dom.js';
import { filterParameters } from './filters.js';
import { labelledMarker } from './markers.js';

/** From this zoom in, each location is a pin. */
export const pinZoom = 16;

/** Round a coordinate to the 6 decimals the API uses. */
const round = (degrees) => Number(degrees.toFixed(6));

export class Places {
  constructor(map, { onLocation }) {
    this.map = map;
    this.onLocation = onLocation;
    this.layer = L.layerGroup().addTo(map);
    this.element = map.getContainer();
    this.controller = null;
  }

  /** The query for the map's visible box at its zoom, with the filters. */
  query() {
    const bounds = this.map.getBounds();
    const zoom = this.map.getZoom();
    const box = {
      south: round(Math.max(bounds.getSouth(), -90)),
      west: round(Math.max(bounds.getWest(), -180)),
      north: round(Math.min(bounds.getNorth(), 90)),
      east: round(Math.min(bounds.getEast(), 180)),
    };
    const filters = filterParameters();
    return zoom >= pinZoom
      ? { layer: 'pins', path: '/region', parameters: { ...box, limit: 2000, ...filters } }
      : { layer: 'clusters', path: '/clusters', parameters: { ...box, zoom, limit: 2000, ...filters } };
  }

  /** Asks for the visible box again and redraws. */
  async refresh() {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const { layer, path, parameters } = this.query();
    const target = pathWithQuery(path, parameters);
    this.element.dataset.state = 'loading';
    try {
      const answer = await get(path, parameters, controller.signal);
      if (controller.signal.aborted) return;
      const items = layer === 'pins' ? answer.locations : answer.clusters;
      this.layer.clearLayers();
      for (const item of items) {
        this.layer.addLayer(layer === 'pins' ? this.pin(item) : this.cluster(item));
      }
      const photos = items.reduce((sum, item) => sum + item.photoCount, 0);
      Object.assign(this.element.dataset, {
        layer, query: target, markers: String(items.length), photos: String(photos), state: 'ready',
      });
      const shown = layer === 'pins' ? plural(items.length, 'place') : plural(items.length, 'cluster');
      announce(`${shown}, ${plural(photos, 'photo')}${answer.truncated ? ' (the busiest; zoom in for the rest)' : ''}.`);
    } catch (error) {
      if (isAbort(error)) return;
      this.element.dataset.state = 'error';
      announce(`The map could not load: ${error.message}`);
    }
  }

  /** A cluster: its photo count in a circle sized by it; choosing it zooms into its box. */
  cluster(cluster) {
    return labelledMarker([cluster.latitude, cluster.longitude], {
      className: 'cluster',
      text: formatCount(cluster.photoCount),
      label: `${plural(cluster.photoCount, 'photo')} at ${plural(cluster.locationCount, 'place')}`,
      size: Math.round(26 + 6 * Math.log10(cluster.photoCount)),
      choose: () => this.zoomInto(cluster),
      dataset: { photoCount: String(cluster.photoCount), locationCount: String(cluster.locationCount) },
    });
  }

  /** Zooms in on a cluster's box: at least one level, and to the pins for a single place. */
  zoomInto(cluster) {
    const { south, west, north, east } = cluster.bbox;
    const bounds = L.latLngBounds([south, west], [north, east]);
    const zoom = this.map.getZoom();
    const target = cluster.locationCount === 1
      ? pinZoom
      : Math.min(Math.max(this.map.getBoundsZoom(bounds.pad(0.2)), zoom + 1), this.map.getMaxZoom());
    this.map.setView(bounds.getCenter(), Math.max(target, zoom + 1), { animate: !reducedMotion });
  }

  /** A location: a pin that opens its photos. */
  pin(location) {
    return labelledMarker([location.latitude, location.longitude], {
      className: 'pin',
      text: location.photoCount > 99 ? '99+' : String(location.photoCount),
      label: `${location.intersection || location.locationID}: ${plural(location.photoCount, 'photo')}`,
      anchor: [14, 28],
      choose: () => this.onLocation(location.locationID),
      dataset: { locationId: location.locationID, photoCount: String(location.photoCount) },
    });
  }
}
