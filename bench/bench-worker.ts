// The render benchmark runs as a vitest file inside this otherwise empty worker.
export default {
  fetch: () => new Response("render benchmark worker"),
} satisfies ExportedHandler;
