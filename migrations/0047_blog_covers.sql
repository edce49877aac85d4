-- Issue 40 point 10: the blog index showed no cover images. The seeded posts get one (a sample photo the site
-- serves under /samples), where nobody has set or changed a cover since (an admin's choice stays).
UPDATE `content_entries` SET `cover_image` = '/samples/amalfi-coast-itinerary-1.jpg', `cover_alt` = 'Pastel houses stacked on a cliff above a turquoise sea with a small boat on the Amalfi Coast' WHERE `id` = 'seed-post-pinterest-seo-basics' AND `cover_image` IS NULL;
--> statement-breakpoint
UPDATE `content_entries` SET `cover_image` = '/samples/sunday-weekly-planning-routine-1.jpg', `cover_alt` = 'Desk from above with an open planner, checklist, coffee mug, pen, sticky notes and a laptop' WHERE `id` = 'seed-post-how-often-should-you-pin' AND `cover_image` IS NULL;
--> statement-breakpoint
UPDATE `content_entries` SET `cover_image` = '/samples/diy-yarn-wall-hanging-1.jpg', `cover_alt` = 'A finished wall hanging with colourful yarn fringe on a wooden dowel above balls of yarn' WHERE `id` = 'seed-post-pin-design-that-gets-clicks' AND `cover_image` IS NULL;
--> statement-breakpoint
UPDATE `content_entries` SET `cover_image` = '/samples/one-pan-lemon-garlic-chicken-1.jpg', `cover_alt` = 'Roasted lemon garlic chicken thighs and golden potatoes in a cast iron pan on a wooden table' WHERE `id` = 'seed-post-one-post-ten-pins' AND `cover_image` IS NULL;
--> statement-breakpoint
UPDATE `content_entries` SET `cover_image` = '/samples/fall-capsule-wardrobe-1.jpg', `cover_alt` = 'Clothing rack with a camel coat, rust sweater and cream shirts in an autumn colour palette' WHERE `id` = 'seed-post-pinterest-for-shop-owners' AND `cover_image` IS NULL;
--> statement-breakpoint
UPDATE `content_entries` SET `cover_image` = '/samples/zero-based-budget-beginners-1.jpg', `cover_alt` = 'Stacks of coins, a pink piggy bank and a rising bar chart on a desk' WHERE `id` = 'seed-post-pinterest-for-affiliate-marketers' AND `cover_image` IS NULL;
