import type { PostContent } from "../../contracts/template.ts";

/** Sample photos (from the demo blog) for previews of templates without a post. */
export const SAMPLE_PHOTOS = [
  "/samples/amalfi-coast-itinerary-1.jpg",
  "/samples/cozy-small-living-room-ideas-2.jpg",
  "/samples/balcony-herb-garden-1.jpg",
  "/samples/one-pan-lemon-garlic-chicken-1.jpg",
  "/samples/berry-smoothie-bowls-1.jpg",
  "/samples/fall-capsule-wardrobe-1.jpg",
];

/** What a template shows when no post fills it. */
export const SAMPLE_POST: PostContent = {
  title: "15 cozy fall decor ideas for a small living room",
  description: "Simple, budget-friendly ways to make a small living room feel warm and welcoming this autumn.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  price: "$24",
  allImages: SAMPLE_PHOTOS,
};
