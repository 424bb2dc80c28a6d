// The map of old New York at `/`: plain modules over the vendored Leaflet (the global
// `L`), talking only to this origin. The base layer is the five boroughs' outlines
// (`/data/boroughs.geojson`); tiles only when the server was started with --map-tiles
// (`/app/settings.json`).

import { session } from './api.js';
import { setUpAccount } from './account.js';
import { drawBase } from './base-map.js';
import { announce, reducedMotion } from './dom.js';
import { Favorites } from './favorites.js';
import { onFiltersChange, setUpFilters } from './filters.js';
import { refreshShownHearts, showLocation } from './location-panel.js';
import { setUpMenu } from './menu.js';
import { setUpModerationLink } from './moderation-link.js';
import { closePanel, panelKind, setUpPanel } from './panel.js';
import { Places, pinZoom } from './places.js';
import { setUpReports } from './report.js';
import { Search } from './search.js';
import { Tour } from './tour.js';
import { readViewHash, writeViewHash } from './view-hash.js';
import { Walks } from './walks.js';

/** The five boroughs (their outlines' bounding box): the first view. */
const boroughBounds = L.latLngBounds([40.4957, -74.2557], [40.9176, -73.7002]);
/** A little more than the city: the map does not wander off to where there is nothing. */
const cityBounds = boroughBounds.pad(0.3);

const map = L.map('map', {
  zoomSnap: 1,
  minZoom: 9,
  maxZoom: 19,
  maxBounds: cityBounds,
  maxBoundsViscosity: 0.7,
  zoomAnimation: !reducedMotion,
  fadeAnimation: !reducedMotion,
  markerZoomAnimation: !reducedMotion,
});
map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');
map.attributionControl.addAttribution('Photos: <a href="https://www.nypl.org">NYPL</a> via OldNYC');

let openLocationID = null;

function saveView() {
  const center = map.getCenter();
  writeViewHash({ lat: center.lat, lon: center.lng, zoom: map.getZoom(), locationID: openLocationID });
}

/** Opens a location's photos in the panel, `chosenPhotoID`'s first when given. */
function openLocation(locationID, chosenPhotoID = null) {
  showLocation(locationID, {
    chosenPhotoID,
    closed: () => {
      if (openLocationID !== locationID) return;
      openLocationID = null;
      saveView();
    },
  });
  openLocationID = locationID;
  saveView();
}

/** Moves to the view the address names, if any; returns whether it named one. */
function followHash() {
  const view = readViewHash();
  if (!view) return false;
  map.setView([view.lat, view.lon], view.zoom, { animate: false });
  if (view.locationID && view.locationID !== openLocationID) openLocation(view.locationID);
  if (!view.locationID && panelKind() === 'location') closePanel();
  return true;
}

const places = new Places(map, { onLocation: openLocation });
const tour = new Tour(map, { onLocation: openLocation });
new Favorites(map, { onLocation: openLocation });
new Walks(map);
new Search({
  onChoose: (result) => {
    map.setView([result.latitude, result.longitude], Math.max(map.getZoom(), pinZoom + 1), { animate: !reducedMotion });
    openLocation(result.locationID, result.photoID);
  },
});

setUpPanel();
setUpMenu();
setUpAccount();
setUpReports(map);
setUpModerationLink();
session.onChange(() => refreshShownHearts());
onFiltersChange(() => {
  places.refresh();
  if (openLocationID) openLocation(openLocationID);
});
document.getElementById('tour-button').addEventListener('click', () => tour.start());

map.on('moveend', () => {
  saveView();
  places.refresh();
});
window.addEventListener('hashchange', followHash);

if (!followHash()) map.fitBounds(boroughBounds, { animate: false });
drawBase(map).catch((error) => announce(`The city's outline could not load: ${error.message}`));
setUpFilters();
