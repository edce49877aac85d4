import { stableSeed } from "../../workers/domain/random.ts";
import type { PostContent, TemplateDesign } from "../../contracts/content/template.ts";

/**
 * What templates show when no post fills them (the template gallery, the
 * template picker, the editor's first sample): sample content that suits the
 * template (issue 13). The topic follows the template's category (recipes,
 * travel, home, shop...) and the copy its family (a list gets list items, a
 * product a price, a quote a quotation, a before-and-after a before and an
 * after), with the demo blog's photos (served from /samples), so the gallery
 * does not show one illustration on every card.
 */

const sample = (name: string) => `/samples/${name}.jpg`;

interface Topic {
  title: string;
  description: string;
  URLText: string;
  brandName: string;
  pictures: string[];
  listTitle: string;
  listItems: string[];
  quote: string;
  product: { title: string; price: string };
}

const RECIPES: Topic = {
  title: "One-pan lemon garlic chicken for busy weeknights",
  description: "Crispy chicken, golden potatoes and bright lemon, roasted together on one pan in 45 minutes.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  pictures: [
    sample("one-pan-lemon-garlic-chicken-1"),
    sample("berry-smoothie-bowls-1"),
    sample("one-pan-lemon-garlic-chicken-2"),
    sample("berry-smoothie-bowls-3"),
    sample("berry-smoothie-bowls-2"),
  ],
  listTitle: "5 easy weeknight dinners",
  listItems: ["Lemon garlic chicken", "Berry smoothie bowls", "One-pot chili", "Sheet-pan salmon", "Pesto pasta"],
  quote: "Good food is very often, even most often, simple food.",
  product: { title: "Cast iron skillet, 10 inch", price: "$34" },
};

const TRAVEL: Topic = {
  title: "A slow 5-day Amalfi Coast itinerary without a car",
  description: "Ferries, buses and footpaths: where to stay, swim, eat and hike on an unhurried trip.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  pictures: [
    sample("amalfi-coast-itinerary-1"),
    sample("mountain-cabin-weekend-packing-list-1"),
    sample("golden-hour-phone-photography-1"),
    sample("amalfi-coast-itinerary-2"),
    sample("mountain-cabin-weekend-packing-list-2"),
  ],
  listTitle: "Cabin weekend packing list",
  listItems: ["Warm base layers", "Broken-in hiking boots", "Headlamp and maps", "A small first aid kit", "Cards and a paperback"],
  quote: "The coast rewards people who slow down to its pace.",
  product: { title: "Packable down travel jacket", price: "$89" },
};

const HOME: Topic = {
  title: "12 cozy small living room ideas that make a tiny space feel bigger",
  description: "Layered lighting, leggy furniture, mirrors and a smarter rug size for a warm, open room.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  pictures: [
    sample("cozy-small-living-room-ideas-1"),
    sample("balcony-herb-garden-1"),
    sample("cozy-small-living-room-ideas-2"),
    sample("diy-yarn-wall-hanging-1"),
    sample("balcony-herb-garden-2"),
  ],
  listTitle: "5 ways to make a small room feel bigger",
  listItems: ["Choose a bigger rug", "Lift furniture off the floor", "Layer your lighting", "Hang curtains high", "Edit your surfaces"],
  quote: "A calm room always feels bigger than a full one.",
  product: { title: "Chunky knit throw in sage", price: "$59" },
};

const SHOP: Topic = {
  title: "The fall capsule wardrobe: 30 pieces, endless outfits",
  description: "Camel, rust and cream basics that mix and match all season.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  pictures: [
    sample("fall-capsule-wardrobe-1"),
    sample("fall-capsule-wardrobe-2"),
    sample("backyard-wedding-on-a-budget-2"),
    sample("diy-yarn-wall-hanging-1"),
    sample("cozy-small-living-room-ideas-2"),
  ],
  listTitle: "Fall capsule essentials",
  listItems: ["A camel coat", "Two knit sweaters", "Dark straight jeans", "Ankle boots", "A silk scarf"],
  quote: "Buy less, choose well, make it last.",
  product: { title: "Rust merino crew-neck sweater", price: "$72" },
};

const EVERYDAY: Topic = {
  title: "My Sunday weekly planning routine",
  description: "A calm 30-minute routine to review last week, set three priorities and plan meals ahead.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  pictures: [
    sample("sunday-weekly-planning-routine-1"),
    sample("zero-based-budget-beginners-1"),
    sample("20-minute-dumbbell-workout-1"),
    sample("rainy-day-activities-for-toddlers-1"),
    sample("backyard-wedding-on-a-budget-1"),
    sample("sunday-weekly-planning-routine-2"),
    sample("golden-hour-phone-photography-2"),
  ],
  listTitle: "My Sunday planning checklist",
  listItems: ["Review last week", "Choose three priorities", "Time-block the calendar", "Plan meals", "Check the weather"],
  quote: "Plan the week on Sunday, and Monday arrives as a friend.",
  product: { title: "Undated weekly planner", price: "$24" },
};

/** Topical categories, in the order they decide a template's topic. */
const TOPICS: [category: string, topic: Topic][] = [
  ["Recipes", RECIPES],
  ["Travel", TRAVEL],
  ["Home", HOME],
  ["Shop", SHOP],
];

/** A before and an after from the demo blog (materials, then the finished piece). */
const BEFORE_AFTER = {
  title: "Yarn wall hanging: from leftover yarn to wall art",
  pictures: [sample("diy-yarn-wall-hanging-2"), sample("diy-yarn-wall-hanging-1")],
};

function rotate<T>(items: readonly T[], by: number): T[] {
  const offset = by % items.length;
  return [...items.slice(offset), ...items.slice(0, offset)];
}

function topicOf(design: Pick<TemplateDesign, "categories" | "family">): Topic {
  const categories = design.categories ?? [];
  for (const [category, topic] of TOPICS) if (categories.includes(category)) return topic;
  return design.family === "product" ? SHOP : EVERYDAY;
}

/** Sample content for a template: a topic from its category, copy for its family, the topic's photos in an order of its own. */
export function sampleContentFor(design: Pick<TemplateDesign, "title" | "categories" | "family">): PostContent {
  const topic = topicOf(design);
  const pictures = rotate(topic.pictures, stableSeed(`${design.family ?? ""}|${design.title}`));
  const base: PostContent = {
    title: topic.title,
    description: topic.description,
    URLText: topic.URLText,
    brandName: topic.brandName,
    price: topic.product.price,
    allImages: pictures,
    listItems: topic.listItems,
    quote: topic.quote,
  };
  switch (design.family) {
    case "list":
      return { ...base, title: topic.listTitle };
    case "product":
      return { ...base, title: topic.product.title };
    case "before-after":
      return { ...base, title: BEFORE_AFTER.title, allImages: [...BEFORE_AFTER.pictures, ...pictures] };
    default:
      return base;
  }
}

/** Sample photos (from the demo blog) for previews of templates without a post. */
export const SAMPLE_PHOTOS = [
  sample("amalfi-coast-itinerary-1"),
  sample("cozy-small-living-room-ideas-2"),
  sample("balcony-herb-garden-1"),
  sample("one-pan-lemon-garlic-chicken-1"),
  sample("berry-smoothie-bowls-1"),
  sample("fall-capsule-wardrobe-1"),
];

/** What a template shows when no post fills it and nothing is known of the template (the editor's first sample). */
export const SAMPLE_POST: PostContent = {
  title: "15 cozy fall decor ideas for a small living room",
  description: "Simple, budget-friendly ways to make a small living room feel warm and welcoming this autumn.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  price: "$24",
  allImages: SAMPLE_PHOTOS,
  listItems: HOME.listItems,
  quote: HOME.quote,
};
