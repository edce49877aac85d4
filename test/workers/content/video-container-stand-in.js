// A stand-in for the VideoContainer Durable Object in the workers tests (vitest.config.ts binds it as
// VIDEO_CONTAINER_STAND_IN; decision 095). The real class starts a container, which the tests cannot (no Docker): this
// one forwards every request to the local Node video service, as the Container class forwards it to the service's
// port in its container, and writes down what it served, so a test sees which instance each call reached.
// Plain JavaScript: an auxiliary worker of the tests is loaded as it is, not compiled.
import { DurableObject } from "cloudflare:workers";

export class VideoContainerStandIn extends DurableObject {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/__served") return Response.json((await this.ctx.storage.get("served")) ?? []);
    const served = (await this.ctx.storage.get("served")) ?? [];
    served.push(`${request.method} ${url.pathname}`);
    await this.ctx.storage.put("served", served);
    return fetch(new URL(`${url.pathname}${url.search}`, this.env.VIDEO_SERVICE_ORIGIN), request);
  }
}

export default {
  fetch() {
    return new Response("Not found", { status: 404 });
  },
};
