// Remix options. The Vite plugin does not read this file by itself:
// vite.config.ts imports it and passes it to remix(...). The routes are app/routes.ts's
// (v3_routeConfig), which also says which files beside them are not routes.
/** @type {import('@remix-run/dev').VitePluginConfig} */
export default {
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
    v3_singleFetch: true,
    v3_routeConfig: true,
  },
}
