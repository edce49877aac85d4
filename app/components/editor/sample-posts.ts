import type { PostContent } from "../../../contracts/content/template.ts";
import { SAMPLE_PHOTOS, SAMPLE_POST } from "../../lib/sample-post.ts";

/** Posts to fill the template with while designing: short and long titles, other photos, a product. */
export const SAMPLE_POSTS: { id: string; label: string; post: PostContent }[] = [
  { id: "sample", label: "Sample post", post: SAMPLE_POST },
  {
    id: "short",
    label: "Short title",
    post: { ...SAMPLE_POST, title: "Easy lemon chicken", URLText: "weeknightkitchen.com", allImages: [SAMPLE_PHOTOS[3], SAMPLE_PHOTOS[4], SAMPLE_PHOTOS[2]] },
  },
  {
    id: "long",
    label: "Long title",
    post: {
      ...SAMPLE_POST,
      title: "The ultimate 7-day Amalfi Coast itinerary: where to stay, what to eat and the quiet beaches only locals know about",
      URLText: "wanderwithwren.com",
      allImages: [SAMPLE_PHOTOS[0], SAMPLE_PHOTOS[2], SAMPLE_PHOTOS[5]],
    },
  },
  {
    id: "product",
    label: "Product",
    post: {
      ...SAMPLE_POST,
      title: "Chunky knit throw in sage",
      description: "Soft, oversized and machine washable.",
      brandName: "Linen & Lark",
      price: "$59",
      allImages: [SAMPLE_PHOTOS[1], SAMPLE_PHOTOS[5], SAMPLE_PHOTOS[0]],
    },
  },
];
