// What every map of these pages is drawn on: the five boroughs' outlines
// (`/data/boroughs.geojson`), over tiles only when the server was started with
// --map-tiles (`/app/settings.json`).

import { get } from './api.js';

/** Draws the base layers on `map` (a Leaflet map). */
export async function drawBase(map) {
  const [settings, boroughs] = await Promise.all([get('/app/settings.json'), get('/data/boroughs.geojson')]);
  if (settings.tiles) {
    L.tileLayer(settings.tiles.url, {
      attribution: settings.tiles.attribution,
      maxZoom: 19,
      // Tile servers such as OpenStreetMap's ask to know the site that uses them.
      referrerPolicy: 'strict-origin-when-cross-origin',
    }).addTo(map);
    map.getContainer().classList.add('with-tiles');
  }
  L.geoJSON(boroughs, { className: 'borough', interactive: false }).addTo(map);
}
