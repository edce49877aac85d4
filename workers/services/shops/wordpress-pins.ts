import { generatePosts, postContent, templatePool } from "../../domain/generate.ts";
import { seededRandom, stableSeed } from "../../domain/random.ts";
import { CREDIT_COSTS } from "../../../contracts/billing/credits.ts";
import type { Post } from "../../../contracts/content/post.ts";
import type { NewScheduledPin } from "../../../contracts/pinterest/scheduling-api.ts";
import type { Source } from "../../../contracts/content/scrape.ts";
import { MAX_WORDPRESS_PINS_PER_POST, type WordPressPin, type WordPressPinsBody, type WordPressPinsResponse } from "../../../contracts/shops/wordpress.ts";
import type { Env } from "../../env.ts";
import type { User } from "../accounts/accounts.ts";
import { openDesignProfile } from "../content/design-settings.ts";
import { requireCredits } from "../billing/credits.ts";
import { createDraft } from "../content/drafts.ts";
import { ServiceError } from "../core/errors.ts";
import { idempotent } from "../core/idempotency.ts";
import { renderAndStorePin } from "../content/pin-images.ts";
import { ownProfile, schedulePins } from "../pinterest/scheduling.ts";
import { getTemplateSet, listStandardTemplates } from "../content/templates.ts";

/**
 * The WordPress plugin's post to pins (issue 20, docs/decisions/054): the
 * post becomes pins exactly as /generate would make them from its page, with
 * the user's ACTIVE design settings (templates, colours, fonts, pins per
 * post, overrides), then either a draft (free: nothing is drawn full size, as
 * on /generate) or pins drawn full size and queued on a profile's board
 * through the same scheduling path as /api/scheduling/schedulePin, so each
 * queued pin is charged its credit once. The whole request runs under its
 * idempotency key: sent twice, it answers the first result and charges nothing
 * more.
 */

const OPERATION = "wordpress.pins";

/** The post as the generator's source: what the plugin sent, nothing fetched. */
function sourceOf(input: WordPressPinsBody): Source {
  return { url: input.url, title: input.title, description: input.excerpt, allImages: [...new Set(input.images)], date: "", siteName: "" };
}

/** The post's pins with the user's active design settings (at most MAX_WORDPRESS_PINS_PER_POST). */
async function generateFor(env: Env, user: User, input: WordPressPinsBody, seed: string): Promise<Post[]> {
  const { settings } = (await openDesignProfile(env, user, "active")).activeDesignSettings;
  const standard = await listStandardTemplates(env, user);
  const found = settings.templateSelections.length > 0 ? await getTemplateSet(env, user, settings.templateSelections) : [];
  const pool = templatePool(settings.templateSelections, found, standard);
  if (pool.length === 0)
    throw new ServiceError(409, "There are no templates to draw pins with. Choose templates in your design settings on the generator page.");
  let next = 0;
  const posts = generatePosts([sourceOf(input)], {
    settings,
    templates: pool,
    fallbacks: standard,
    random: seededRandom(stableSeed(seed)),
    newId: () => `wp-${seed.slice(0, 8)}-${(next += 1)}`,
  });
  return posts.filter((post) => post.template).slice(0, MAX_WORDPRESS_PINS_PER_POST);
}

function pinOf(post: Post): WordPressPin {
  return { title: post.title, description: post.description, url: post.url, templateName: post.template?.title ?? "" };
}

async function toDraft(env: Env, user: User, input: WordPressPinsBody, posts: Post[]): Promise<WordPressPinsResponse> {
  const name = `WordPress: ${input.title}`.slice(0, 100);
  // The draft's date text (the browser sends its local time; the server knows no time zone here, so it says UTC).
  const date = `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date())} UTC`;
  const draft = await createDraft(env, user, { posts, name, date });
  return {
    destination: "draft",
    pins: posts.map(pinOf),
    draft: { draftId: draft.draftId, name: draft.name, openUrl: new URL("/generate", env.APP_URL).toString() },
    creditsCharged: 0,
  };
}

async function toQueue(env: Env, user: User, input: WordPressPinsBody, posts: Post[], requestId: string): Promise<WordPressPinsResponse> {
  const username = input.pinterestProfileUsername!;
  // Before drawing anything: the profile must be the caller's own, and the balance must pay for every pin.
  await ownProfile(env, user, username, "pinterestProfileUsername");
  await requireCredits(env, user.id, posts.length * CREDIT_COSTS.image);
  const pins: NewScheduledPin[] = [];
  for (const [index, post] of posts.entries()) {
    // Drawn for scheduling: not served until the schedule below charges its credit (pin-renders.ts).
    const rendered = await renderAndStorePin(
      env,
      user,
      { ...postContent(post), template: post.template!, fileName: post.fileName.slice(0, 100), url: post.url },
      "schedule",
      "",
    );
    pins.push({
      reference: `wp:${requestId}:${index}`,
      title: post.title.slice(0, 100),
      description: post.description.slice(0, 800),
      altText: post.altText.slice(0, 500),
      url: post.url || input.url,
      imageURL: rendered.imageURL,
      mediaURL: "",
      mediaType: "image",
      videoURL: "",
      videoThumbnail: "",
      boardId: input.boardId!,
      sectionId: null,
      boardName: input.boardName,
      pinterestProfileUsername: username,
      scheduledTime: null,
      type: "Queue",
      allowDuplicate: false,
    });
  }
  const result = await schedulePins(env, user, pins, { batch: true, fieldPrefix: () => "" });
  if (result.scheduledPins.length === 0 && result.failedPins.length > 0) {
    const first = result.failedPins[0];
    throw new ServiceError(first.status as ServiceError["status"], first.error);
  }
  const postOfImage = new Map(pins.map((pin, index) => [pin.imageURL, posts[index]]));
  return {
    destination: "queue",
    pins: result.scheduledPins.map((scheduled) => ({
      templateName: postOfImage.get(scheduled.imageURL)?.template?.title ?? "",
      title: scheduled.title,
      description: scheduled.description,
      url: scheduled.url,
      imageURL: scheduled.imageURL,
      scheduledPinId: scheduled.id,
      scheduledTime: scheduled.scheduledTime,
    })),
    notQueued: result.failedPins.map((failure) => ({ title: pins[failure.index].title, error: failure.error })),
    pinterestProfileUsername: username,
    boardId: input.boardId,
    creditsCharged: result.creditsCharged,
  };
}

/** POST /api/wordpress/pins for the key's user; `key` is the request's idempotency key, if any. */
export async function pinsFromWordPressPost(env: Env, user: User, input: WordPressPinsBody, key: string | undefined): Promise<WordPressPinsResponse> {
  return idempotent({
    env,
    userId: user.id,
    operation: OPERATION,
    key,
    body: input,
    work: async (requestId) => {
      const posts = await generateFor(env, user, input, requestId);
      if (posts.length === 0) throw new ServiceError(422, "No pin could be made from this post. Check that its pictures open, then send it again.");
      return input.destination === "draft" ? toDraft(env, user, input, posts) : toQueue(env, user, input, posts, requestId);
    },
  });
}
