import { testEnv } from "../support.ts";

/** A picture of the sandbox's demo blog, by file name. */
export const photo = (name: string) => `${testEnv.SANDBOX_URL}/blog-demo/images/${name}`;

/** The post the render tests lay out: a blog post's copy and two of its pictures. */
export const samplePost = {
  title: "15 cozy fall decor ideas for a small living room",
  description: "Simple, budget-friendly ways to make a small living room feel warm and welcoming this autumn.",
  URLText: "linenandlark.com",
  brandName: "Linen & Lark",
  price: "$24",
  allImages: [photo("amalfi-coast-itinerary-1.jpg"), photo("balcony-herb-garden-1.jpg")],
};
