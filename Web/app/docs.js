// The API reference at /docs: Swagger UI (vendored, /vendor/swagger-ui-*) over this
// server's own /openapi.yaml. Nothing leaves the page's origin: no validator badge,
// and "Try it out" sends every request to the origin the page came from, whatever
// `servers` the document names (it names the local default, localhost:8080).

const origin = window.location.origin;

/** Points a request at this page's origin, keeping its path and query. */
function toThisOrigin(request) {
  const url = new URL(request.url, origin);
  if (url.origin !== origin) {
    request.url = origin + url.pathname + url.search;
  }
  return request;
}

/** Shows this origin as the document's one server, so the URLs and curl lines shown are the ones sent. */
const ThisOriginServer = () => ({
  statePlugins: {
    spec: {
      wrapActions: {
        updateJsonSpec: (next) => (spec) => {
          const servers = [{ url: origin, description: 'This server' }];
          return next(spec && typeof spec === 'object' ? { ...spec, servers } : spec);
        },
      },
    },
  },
});

window.ui = window.SwaggerUIBundle({
  url: '/openapi.yaml',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [window.SwaggerUIBundle.presets.apis],
  plugins: [ThisOriginServer],
  layout: 'BaseLayout',
  requestInterceptor: toThisOrigin,
  displayRequestDuration: true,
});
