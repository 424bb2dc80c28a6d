// The photographed places on the map: zoomed out, `/clusters` of the visible box with
// their photo counts; from `pinZoom` in, `/region`'s locations as pins. Every move or
// filter change asks again (an answer that a newer request replaced is dropped).
//
// The API's clusters are the cells of a 64-pixel grid placed at their locations' mean, so
// two of neighbouring cells can sit a few pixels apart; drawn as they are, their circles
// overlap. The page draws a cluster that would overlap a bigger one as part of it
// (`mergeOverlapping`): one circle with both counts and boxes.
//
// For tests and tools, the map element tells what it shows: data-state ("loading",
// "ready", "error"), data-layer ("clusters" or "pins"), data-query (the request drawn),
// data-markers and data-photos (how many markers, and their photos in all), and for
// clusters data-clusters (the API's clusters, each drawn in exactly one marker).

import { get, isAbort, pathWithQuery } from './api.js';
import { announce, formatCount, plural, reducedMotion } from './dom.js';
import { filterParameters } from './filters.js';
import { labelledMarker } from './markers.js';

/** From this zoom in, each location is a pin. */
export const pinZoom = 16;

/** Round a coordinate to the 6 decimals the API uses. */
const round = (degrees) => Number(degrees.toFixed(6));

/** A cluster's circle, in pixels across: it grows with the photos it holds. */
const clusterSize = (photoCount) => Math.round(26 + 6 * Math.log10(photoCount));

/** The least gap, in pixels, between two clusters' circles. */
const clusterGap = 2;

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
      const items = layer === 'pins' ? answer.locations : this.mergeOverlapping(answer.clusters);
      this.layer.clearLayers();
      for (const item of items) {
        this.layer.addLayer(layer === 'pins' ? this.pin(item) : this.cluster(item));
      }
      const photos = items.reduce((sum, item) => sum + item.photoCount, 0);
      Object.assign(this.element.dataset, {
        layer, query: target, markers: String(items.length), photos: String(photos), state: 'ready',
      });
      if (layer === 'clusters') this.element.dataset.clusters = String(answer.clusters.length);
      else delete this.element.dataset.clusters;
      const shown = layer === 'pins' ? plural(items.length, 'place') : plural(items.length, 'cluster');
      announce(`${shown}, ${plural(photos, 'photo')}${answer.truncated ? ' (the busiest; zoom in for the rest)' : ''}.`);
    } catch (error) {
      if (isAbort(error)) return;
      this.element.dataset.state = 'error';
      announce(`The map could not load: ${error.message}`);
    }
  }

  /**
   * The clusters to draw: the API's, biggest first, each that would overlap one kept
   * before it (their circles closer than `clusterGap`) folded into that one (counts
   * added, boxes joined, the bigger one's place kept). A fold grows the circle, which may
   * reach another: passes repeat until no two overlap. Each drawn cluster says how many
   * of the API's it holds (`clusterCount`).
   */
  mergeOverlapping(clusters) {
    let drawn = [...clusters]
      .sort((a, b) => b.photoCount - a.photoCount)
      .map((cluster) => ({ ...cluster, bbox: { ...cluster.bbox }, clusterCount: 1 }));
    for (let folded = true; folded;) {
      folded = false;
      const kept = [];
      for (const cluster of drawn) {
        const point = this.map.latLngToLayerPoint([cluster.latitude, cluster.longitude]);
        const near = kept.find((other) => {
          const reach = (clusterSize(other.photoCount) + clusterSize(cluster.photoCount)) / 2 + clusterGap;
          return other.point.distanceTo(point) < reach;
        });
        if (!near) {
          kept.push({ ...cluster, point });
          continue;
        }
        folded = true;
        near.photoCount += cluster.photoCount;
        near.locationCount += cluster.locationCount;
        near.clusterCount += cluster.clusterCount;
        near.locationID = null;
        near.bbox = {
          south: Math.min(near.bbox.south, cluster.bbox.south),
          west: Math.min(near.bbox.west, cluster.bbox.west),
          north: Math.max(near.bbox.north, cluster.bbox.north),
          east: Math.max(near.bbox.east, cluster.bbox.east),
        };
      }
      drawn = kept.sort((a, b) => b.photoCount - a.photoCount);
    }
    return drawn;
  }

  /** A cluster: its photo count in a circle sized by it; choosing it zooms into its box. */
  cluster(cluster) {
    return labelledMarker([cluster.latitude, cluster.longitude], {
      className: 'cluster',
      text: formatCount(cluster.photoCount),
      label: `${plural(cluster.photoCount, 'photo')} at ${plural(cluster.locationCount, 'place')}`,
      size: clusterSize(cluster.photoCount),
      choose: () => this.zoomInto(cluster),
      dataset: {
        photoCount: String(cluster.photoCount),
        locationCount: String(cluster.locationCount),
        clusterCount: String(cluster.clusterCount),
      },
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
