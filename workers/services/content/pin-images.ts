import { CREDIT_COSTS } from "../../../contracts/billing/credits.ts";
import type { RenderedPin, RenderPurpose } from "../../../contracts/content/render.ts";
import type { PostContent, TemplateDesign } from "../../../contracts/content/template.ts";
import { pinFileName } from "../../domain/file-names.ts";
import type { Env } from "../../env.ts";
import { MEDIA_PATH_PREFIX, mediaUrl, putMedia, userMediaPrefix } from "../../media/store.ts";
import { labelPicture, TEMPLATE_FAMILY_KEYWORD } from "../../render/picture-label.ts";
import { httpPictureSource, type PictureSource } from "../../render/pictures.ts";
import { renderPin } from "../../render/render-pin.ts";
import { workerFontLoader } from "../../render/worker-fonts.ts";
import type { User } from "../accounts/accounts.ts";
import { addPinHistory, requireCredits } from "../billing/credits.ts";
import { recordUnpaidRender, renderKey } from "./pin-renders.ts";

/**
 * Pictures for rendering: our own media straight from R2 (no round trip
 * through the network), anything else through the guarded fetch.
 */
export function pictureSourceFor(
  env: Pick<Env, "MEDIA" | "APP_URL" | "DNS_RESOLVER_URL" | "TRUSTED_FETCH_ORIGINS">,
  options: { bypassResize?: boolean } = {},
): PictureSource {
  const http = httpPictureSource(env, options);
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

export type PinPost = PostContent & { template: TemplateDesign; fileName?: string; url?: string; bypassResize?: boolean };

/**
 * Renders a post's pin (1000 x 1500 JPEG) and stores it in the user's media.
 * A download is charged one image credit with its "downloaded" history row
 * (`chargeReference` names the charge: one per request), refused (402) before
 * rendering when the balance cannot pay; the image is deleted again if the
 * charge fails. A render for scheduling is charged nothing here: it is kept
 * out of /media until the schedule that uses it charges the pin's credit.
 */
export async function renderAndStorePin(env: Env, user: User, post: PinPost, purpose: RenderPurpose, chargeReference: string): Promise<RenderedPin> {
  if (purpose === "download") await requireCredits(env, user.id, CREDIT_COSTS.image);
  const pin = await renderPin(post.template, post, { fonts: workerFontLoader(env), pictures: pictureSourceFor(env, { bypassResize: post.bypassResize }) });
  const fileName = pinFileName(post.fileName || post.title || post.template.title);
  const key = purpose === "download" ? `${userMediaPrefix(user.id)}pins/${crypto.randomUUID().slice(0, 8)}/${fileName}` : renderKey(user.id, fileName);
  if (purpose === "schedule") await recordUnpaidRender(env, user.id, key);
  // The family travels in the file (a JPEG comment), so Pinterest's copy still says which family made it (issue 41).
  const bytes = post.template.family ? labelPicture(pin.jpeg, TEMPLATE_FAMILY_KEYWORD, post.template.family) : pin.jpeg;
  await putMedia(env, key, bytes, "image/jpeg");
  const url = mediaUrl(env.APP_URL, key);
  let creditsCharged = 0;
  if (purpose === "download") {
    try {
      const { charged } = await addPinHistory(
        env,
        user.id,
        { action: "downloaded", title: post.title ?? "", description: post.description ?? "", url: post.url ?? "", imageUrl: url, mediaType: "image" },
        { category: "image", amount: CREDIT_COSTS.image, reason: "Pin download", reference: chargeReference },
      );
      if (charged) creditsCharged = CREDIT_COSTS.image;
    } catch (error) {
      await env.MEDIA.delete(key);
      throw error;
    }
  }
  return { url, imageURL: url, fileName, width: pin.width, height: pin.height, purpose, creditsCharged };
}
