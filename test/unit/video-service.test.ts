import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startVideoService } from "../../containers/video/server.ts";

let service: Awaited<ReturnType<typeof startVideoService>>;

beforeAll(async () => {
  service = await startVideoService(0);
});
afterAll(() => service.close());

describe("video service", () => {
  it("reports the ffmpeg it will use in its health check", async () => {
    const response = await fetch(`${service.url}/health`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe("ok");
    expect(body.ffmpeg.version).toMatch(/^ffmpeg version \S+/);
    expect(body.ffmpeg.path).toBeTruthy();
  });

  it("accepts a job once and shows its state", async () => {
    const submit = () =>
      fetch(`${service.url}/jobs`, { method: "POST", body: JSON.stringify({ jobId: "j-1", payload: { a: 1 } }) });
    const first = await submit();
    expect(first.status).toBe(202);
    expect((await submit()).status).toBe(200);
    const job = await (await fetch(`${service.url}/jobs/j-1`)).json();
    expect(job).toMatchObject({ jobId: "j-1", status: "queued", payload: { a: 1 } });
  });

  it("rejects a job without an id, and bad JSON, with 400", async () => {
    const noId = await fetch(`${service.url}/jobs`, { method: "POST", body: JSON.stringify({ payload: {} }) });
    expect(noId.status).toBe(400);
    expect(await noId.json()).toEqual({ error: "jobId is required", field: "jobId" });
    expect((await fetch(`${service.url}/jobs`, { method: "POST", body: "{" })).status).toBe(400);
    expect((await fetch(`${service.url}/jobs/none`)).status).toBe(404);
  });
});
