import type { PostContent, TemplateDesign } from "../../contracts/template.ts";
import { pinFileName } from "../domain/file-names.ts";
import type { Env } from "../env.ts";
import { MEDIA_PATH_PREFIX, mediaUrl, putMedia } from "../media/store.ts";
import { httpPictureSource, type PictureSource } from "../render/pictures.ts";
import { renderPin } from "../render/render-pin.ts";
import { workerFontLoader } from "../render/worker-fonts.ts";
import type { User } from "./accounts.ts";
import { userMediaPrefix } from "./users.ts";

/**
 * Pictures for rendering: our own media straight from R2 (no round trip
 * through the network), anything else over http(s) within limits.
 */
export function pictureSourceFor(env: Pick<Env, "MEDIA" | "APP_URL">, options: { bypassResize?: boolean } = {}): PictureSource {
  const http = httpPictureSource(fetch, options);
  const ownMedia = new URL(MEDIA_PATH_PREFIX, env.APP_URL).toString();
  return {
    bypassResize: options.bypassResize,
    async fetch(url) {
      if (url.startsWith(ownMedia) || url.startsWith(MEDIA_PATH_PREFIX)) {
        const key = decodeURIComponent(new URL(url, env.APP_URL).pathname.slice(MEDIA_PATH_PREFIX.length));
        const object = await env.MEDIA.get(key);
        return object ? new Uint8Array(await object.arrayBuffer()) : null;
      }
      if (!/^https?:\/\//i.test(url)) return null;
      return http.fetch(url);
    },
  };
}

/** Renders a post's pin (1000 x 1500 JPEG), stores it in the user's media and answers its URL. */
export async function renderAndStorePin(
  env: Env,
  user: User,
  post: PostContent & { template: TemplateDesign; fileName?: string; bypassResize?: boolean },
) {
  const pin = await renderPin(post.template, post, { fonts: workerFontLoader(env), pictures: pictureSourceFor(env, { bypassResize: post.bypassResize }) });
  const fileName = pinFileName(post.fileName || post.title || post.template.title);
  const key = `${userMediaPrefix(user.id)}pins/${crypto.randomUUID().slice(0, 8)}/${fileName}`;
  await putMedia(env, key, pin.jpeg, "image/jpeg");
  return { url: mediaUrl(env.APP_URL, key), fileName, width: pin.width, height: pin.height, timings: pin.timings };
}
