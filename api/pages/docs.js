// Renders /openapi.json with the vendored Swagger UI (api/swaggerui). Loaded
// after swagger-ui-bundle.js (both deferred), so the DOM is parsed already.
'use strict';
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: -1, // the tool schemas are many and large: shown per operation
  displayRequestDuration: true,
  validatorUrl: null, // never send the description to another origin
  tryItOutEnabled: false,
});
