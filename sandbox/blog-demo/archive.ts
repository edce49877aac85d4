import { DEMO_POSTS, type DemoPost } from "./posts.ts";

/**
 * The demo blog's archive: older follow-up posts, eight for each of the 14
 * posts (112 in all), each with its own title, description and date, reusing
 * the original post's images and prose. Served at /blog-demo/archive/<n>
 * (n from 1) and listed in sitemap-archive.xml, so that "from the sitemap to
 * 100 posts" has enough posts to work with.
 */

interface Angle {
  label: string;
  intro: (post: DemoPost) => string;
}

const ANGLES: Angle[] = [
  {
    label: "Reader Questions",
    intro: (p) =>
      `You sent in so many questions about "${p.title}" that they deserved a post of their own. Here are the ones that came up most, answered one by one.`,
  },
  {
    label: "One Year Later",
    intro: (p) => `A year after I first wrote about "${p.title}", here is what stuck, what I quietly dropped and what I would tell anyone starting today.`,
  },
  {
    label: "The Budget Version",
    intro: (p) => `Everything from "${p.title}", done for as little money as possible, with the swaps that made the biggest difference to the total.`,
  },
  {
    label: "Mistakes to Avoid",
    intro: (p) => `Before you try "${p.title}", learn from the mistakes I made the first few times so you can skip straight to the good part.`,
  },
  {
    label: "A Printable Checklist",
    intro: (p) => `This is the one-page checklist version of "${p.title}": print it, stick it somewhere you will see it and tick things off as you go.`,
  },
  { label: "Quick Tips", intro: (p) => `Short on time? These are the quickest wins from "${p.title}", each one small enough to try this week.` },
  {
    label: "Behind the Scenes",
    intro: (p) => `How "${p.title}" actually came together: the planning, the false starts and the photos that did not make the cut.`,
  },
  {
    label: "Your Questions, Round Two",
    intro: (p) => `The second round of your questions about "${p.title}", with the follow-ups from readers who tried it themselves.`,
  },
];

export interface ArchivePost extends DemoPost {
  /** Its number in the archive: served at /blog-demo/archive/<number>. */
  number: number;
  /** Slug of the post it follows up on. */
  original: string;
}

const FIRST_DAY = Date.UTC(2022, 0, 3, 9, 0, 0);
const DAY = 24 * 60 * 60 * 1000;

export const ARCHIVE_POSTS: ArchivePost[] = ANGLES.flatMap((angle, a) =>
  DEMO_POSTS.map((post, p) => {
    const number = a * DEMO_POSTS.length + p + 1;
    const description = `${angle.label} for "${post.title}": ${post.description}`;
    return {
      ...post,
      number,
      original: post.slug,
      slug: `archive-${number}`,
      title: `${angle.label}: ${post.title}`,
      description: description.length > 300 ? `${description.slice(0, 297).replace(/\s+\S*$/, "")}...` : description,
      // Every archive post is older than the newest posts, a few days apart.
      publishedAt: new Date(FIRST_DAY + number * 5 * DAY).toISOString().replace(".000Z", "Z"),
      paragraphs: [angle.intro(post), ...post.paragraphs],
    };
  }),
);

export function findArchivePost(number: number): ArchivePost | undefined {
  return Number.isInteger(number) ? ARCHIVE_POSTS[number - 1] : undefined;
}
