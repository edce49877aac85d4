/**
 * The blog posts and pages the product ships with (issue 17). Loaded by the
 * seed without overwriting: once an admin edits or deletes one, reseeding
 * leaves it as the admin left it (workers/db/seed.ts).
 */
export interface SeedContent {
  id: string;
  kind: "post" | "page";
  slug: string;
  title: string;
  description: string;
  author: string;
  coverImage: string | null;
  coverAlt: string | null;
  /** Publication date, UTC. */
  publishedAt: number;
  body: string;
}

const AUTHOR = "The Pinboard Studio team";

export const SEED_CONTENT: SeedContent[] = [
  {
    id: "seed-post-pinterest-seo-basics",
    kind: "post",
    slug: "pinterest-seo-basics",
    title: "Pinterest SEO basics: how people find your pins",
    description: "Pinterest is a search engine before it is a social network. Here is how keywords, boards and fresh pins decide who sees your content.",
    author: AUTHOR,
    coverImage: "/samples/amalfi-coast-itinerary-1.jpg",
    coverAlt: "Pastel houses stacked on a cliff above a turquoise sea with a small boat on the Amalfi Coast",
    publishedAt: Date.UTC(2026, 9, 6, 9),
    body: `Most people who open Pinterest are not scrolling through a feed of friends. They are searching: *easy weeknight dinners*, *small balcony garden*, *linen bedding neutral*. That makes Pinterest much closer to a search engine than to a social network, and it is why a pin can keep sending visitors to your blog or shop for months after you post it.

## Where Pinterest reads your keywords

Pinterest decides what a pin is about from several places at once:

- **The pin title.** Up to 100 characters. Put the main phrase first, written the way a person would type it into the search bar.
- **The pin description.** Up to 500 characters. Two or three natural sentences that use the main phrase once and one or two related phrases. Lists of hashtags add nothing any more.
- **The text on the image.** Pinterest reads the words in your picture. A clear headline on the pin helps both the reader and the ranking.
- **The board.** A pin saved to a board called *Vegetarian dinner recipes* is understood better than one saved to *Stuff I like*.
- **The page behind the pin.** The title and description of the linked page should agree with the pin.

## Find the phrases people really use

Start typing a topic into Pinterest's search bar and look at the suggestions that appear: those are real searches. The coloured tiles under the search bar after you press enter are narrower versions of the same search. Write down the five to ten phrases that fit each post you want to promote.

Use each phrase for a different pin. Five pins for one blog post, each aimed at a different phrase and with a different picture, reach far more people than five copies of the same pin.

## Freshness matters

Pinterest prefers *fresh pins*: images it has not seen before, even when they link to a page it already knows. That is why pinning the same picture again and again stops working, and why a steady flow of new designs for your existing posts keeps your reach growing.

This is exactly what the [pin generator](/generate) is for: paste a post address, pick a few templates, and you get several different pins for the same post in a minute, each with its own title and description.

## Boards that help, not hurt

Keep boards focused. Give each one a descriptive name and a one-line description that uses the phrases you found. Ten focused boards beat fifty vague ones.

## A simple routine

1. Pick one post or product a day.
2. Make three to five fresh pins for it, each for a different search phrase.
3. Schedule them over the next weeks instead of posting them all at once.

Read on in [how often to pin](https://blog.pinboard.studio/how-often-should-you-pin/) for the schedule that works for most accounts.`,
  },
  {
    id: "seed-post-how-often-should-you-pin",
    kind: "post",
    slug: "how-often-should-you-pin",
    title: "How often should you pin? A schedule that keeps growing",
    description:
      "Posting 50 pins in one evening and then nothing for a week hurts your reach. A steady daily schedule works better, and it is easy to automate.",
    author: AUTHOR,
    coverImage: "/samples/sunday-weekly-planning-routine-1.jpg",
    coverAlt: "Desk from above with an open planner, checklist, coffee mug, pen, sticky notes and a laptop",
    publishedAt: Date.UTC(2026, 9, 13, 9),
    body: `The question we hear most from new users is how many pins they should post. The honest answer is that *consistency* matters far more than volume. Pinterest rewards accounts that show up every day with something new, and it quietly holds back accounts that post in bursts.

## Why bursts do not work

When you save 50 pins in one evening, Pinterest shows only a few of them to your followers and to search. The rest compete with each other for the same attention. Then, for the days you post nothing, your account has nothing new for Pinterest to distribute. The total reach of those 50 pins is much lower than if the same pins had gone out a few each day.

## A schedule to start with

For most bloggers and shop owners, this works well:

- **5 to 10 new pins a day**, spread over the day.
- **At least 3 different designs** for every post or product you promote.
- **The same link no more than once a day** to the same board.
- **A week or more between** two pins of the same link on the same board.

If you have a small site with 20 posts, that still gives you plenty to pin: 20 posts with 5 designs each is 100 pins, or two to three weeks of daily pinning. Add new designs every month and the schedule never runs dry.

## Pick the times your readers are awake

Pins posted while your audience is browsing get their first saves faster, which helps the pin travel. If most of your readers are in North America, evenings in Eastern and Pacific time are a good start. If they are in Europe, early mornings and evenings in Central European time. Look at your analytics after a month and move your slots toward the hours that brought the most clicks.

In [scheduling settings](/scheduling) you choose how many pins go out each day and at which times; every pin you schedule then takes the next free slot, in your own time zone.

## Automate the boring part

Nobody wants to set an alarm to post a pin at 20:15. Bulk scheduling lets you prepare a week or a month of pins in one sitting, then forget about it: the pins go out on their own at the times you picked, and you can see what is queued and what was posted in one place.

## Measure, then adjust

After four weeks, look at which pins brought clicks. Usually a handful of designs and phrases do most of the work. Make more pins in that style, for more posts, and retire the designs that never got a click.

For the designs themselves, read [what makes a pin get clicked](https://www.pinboard.studio/blog/pin-design-that-gets-clicks/).`,
  },
  {
    id: "seed-post-pin-design-that-gets-clicks",
    kind: "post",
    slug: "pin-design-that-gets-clicks",
    title: "Pin design that gets clicks: seven rules we test every template against",
    description: "Tall images, readable headlines and a clear promise. The seven design rules behind every standard template in Pinboard Studio.",
    author: AUTHOR,
    coverImage: "/samples/diy-yarn-wall-hanging-1.jpg",
    coverAlt: "A finished wall hanging with colourful yarn fringe on a wooden dowel above balls of yarn",
    publishedAt: Date.UTC(2026, 9, 20, 9),
    body: `A pin has about a second to earn a click. Someone scrolling a grid of images sees yours for a moment, on a phone, next to dozens of others. Every standard template in Pinboard Studio is checked against the same seven rules, and you can use them for your own designs too.

## 1. Use the 2:3 shape

Pinterest shows pins in columns, and tall pins take more of the screen. A 1000 by 1500 pixel pin (a 2:3 ratio) is the safe choice. Much taller pins get cut off in the grid.

## 2. A headline you can read on a phone

Hold your phone at arm's length. If you cannot read the headline, it is too small. Use one short headline of five to eight words in a heavy, simple font, and at most one smaller line under it.

## 3. Contrast before style

White text on a busy photo disappears. Put text on a solid block, a soft overlay, or a calm part of the picture. Script fonts are pretty, but keep them for one accent word.

## 4. Make a promise

The best headlines say what the reader gets: *15-minute dinners for busy weeknights*, *How we saved 300 dollars on our wedding flowers*. A pin that only names a topic (*Dinner ideas*) gets fewer clicks than one that promises a result.

## 5. Show the real thing

A real photo of the dish, the room or the product does better than stock imagery. If you sell products, show the product in use. If you write recipes, show the finished plate close up.

## 6. Brand it lightly

Put your site name or logo small at the bottom. It builds recognition over time without taking attention from the headline. In your design settings you can store your colours, fonts and logo once, and every template uses them.

## 7. Make several versions

You rarely know in advance which design will win. Make three to five versions of every pin (different photo, different headline, different layout) and let the results decide. This is where templates save the most time: the same post becomes five different pins in one click on the [generate page](/generate).

## Alt text is not optional

Every pin should carry alt text: one or two sentences describing the picture for people who use screen readers. It also helps Pinterest understand the image. The AI helper in the generator writes a first draft for you; read it and fix anything it got wrong.

## Check before you schedule

Before a batch goes out, look at the previews side by side at phone size. If two pins look nearly the same, change the photo of one of them. Variety in your queue is what keeps your account fresh.

Next: [turning one blog post into ten pins](/blog/one-post-ten-pins).`,
  },
  {
    id: "seed-post-one-post-ten-pins",
    kind: "post",
    slug: "one-post-ten-pins",
    title: "One blog post, ten pins: a repeatable workflow for bloggers",
    description: "How to turn every post you have already written into a month of fresh Pinterest traffic, without designing each pin by hand.",
    author: AUTHOR,
    coverImage: "/samples/one-pan-lemon-garlic-chicken-1.jpg",
    coverAlt: "Roasted lemon garlic chicken thighs and golden potatoes in a cast iron pan on a wooden table",
    publishedAt: Date.UTC(2026, 9, 27, 9),
    body: `Your archive is your biggest Pinterest asset. Most blogs have dozens or hundreds of posts that still answer real questions, and each of them can carry many pins. Here is the workflow we recommend to bloggers who want steady traffic without spending every evening in a design tool.

## Step 1: choose the posts that deserve traffic

Start with posts that are evergreen (still true next year), that answer a question people search for, and that lead somewhere useful: a newsletter sign-up, an affiliate product, your own shop. Ten good posts are a better start than a hundred average ones.

## Step 2: find three to five angles per post

One post usually answers several searches. A post about sourdough bread might be found as *beginner sourdough recipe*, *sourdough without a mixer*, *overnight bread schedule* and *what to do with sourdough discard*. Each angle becomes its own headline.

## Step 3: generate the pins in one go

Paste the post address into the [generator](/generate). Pinboard Studio reads the title, description and pictures of the post and fills them into the templates you picked. Choose different pictures from the post for different pins, change the headline to each of your angles, and you have five distinct pins in a couple of minutes.

You can also start from your sitemap or RSS feed to bring in many posts at once, which is the fastest way through an archive.

## Step 4: let AI draft the words, then edit

Titles, descriptions and alt text for ten pins are a lot of writing. The AI helper drafts them from the post, using the phrase you are aiming for. Always read the drafts: cut anything that overpromises, and make sure the description matches what the reader will find on the page.

## Step 5: schedule over weeks, not minutes

Do not post all ten pins today. Put them into your schedule so that the same link goes out at most once a day, to different boards, over two or three weeks. With a daily schedule of five to ten pins and ten posts with ten pins each, you have three weeks of queue from one afternoon of work.

## Step 6: repeat monthly with new designs

Pinterest likes fresh images. Once a month, take your best posts and make a new round of designs. Your archive keeps earning, and your account never goes quiet.

## What this costs in time

Once the templates are set up, the whole workflow takes about an hour for ten posts: ten minutes choosing posts and angles, twenty minutes generating and editing, and half an hour reviewing and scheduling. Compare that with designing a hundred pins by hand.

If you are not sure which posts to start with, [read about Pinterest SEO](https://blog.pinboard.studio/pinterest-seo-basics/) first.`,
  },
  {
    id: "seed-post-pinterest-for-shop-owners",
    kind: "post",
    slug: "pinterest-for-shop-owners",
    title: "Pinterest for shop owners: turning product listings into pins that sell",
    description:
      "Etsy, Shopify and WooCommerce sellers can reach buyers who are planning a purchase. How to present products on Pinterest so they get saved and bought.",
    author: AUTHOR,
    coverImage: "/samples/fall-capsule-wardrobe-1.jpg",
    coverAlt: "Clothing rack with a camel coat, rust sweater and cream shirts in an autumn colour palette",
    publishedAt: Date.UTC(2026, 10, 3, 9),
    body: `People come to Pinterest while they are planning: a kitchen makeover, a wedding, a birthday, a new season's wardrobe. That makes it one of the few places online where people actively look for things to buy, weeks before they buy them. If you sell physical or digital products, that planning stage is where you want to be seen.

## Pins that sell show the product in a life

A product photo on a white background tells people what the thing is. A photo of the product in use tells them why they want it. For each product, use at least one lifestyle picture: the mug on a breakfast table, the print on a living-room wall, the planner open on a desk.

Then add a short headline that names the occasion or the problem: *Gift ideas for coffee lovers under 30 dollars*, *Calm bedroom wall art*, *Undated weekly planner for busy parents*.

## One product, several pins

Just like blog posts, products deserve several pins, each for a different search:

- the product itself (*handmade ceramic mug*),
- the occasion (*gift for a new home*),
- the style (*minimalist kitchen decor*),
- the collection (*ten cosy autumn gifts*).

## Connect your shop instead of copying

On the [products page](/products) you can connect an Etsy, Shopify or WooCommerce shop, or upload a CSV file of your listings. Pinboard Studio then has each product's title, description, price and pictures ready, and every product becomes a set of pins with a couple of clicks. When you change a listing, you make the next pins from the new details.

## Prices and honesty

If your pin mentions a price or a discount, keep it true. Pinterest and your buyers both notice when a pin promises something the shop does not offer. Evergreen wording (*under 30 dollars*) ages better than exact figures in the image.

## Seasonal planning

Pinterest users plan early. Gift searches start climbing in September, wedding searches after the new year, and garden searches in late winter. Schedule seasonal pins six to eight weeks before the season you are selling for, and keep them running until just before the date.

## Measure sales, not saves

Saves are nice, but clicks and sales pay the bills. Add tracking parameters to your links and look at which pins brought visitors who bought. Make more pins like those, for more products.

## A weekly routine for sellers

1. Pick five products: a best seller, a new listing and three seasonal items.
2. Make three pins for each from your shop connection.
3. Schedule them across the week, mixing products so no link repeats on the same day.

Fifteen fresh pins a week, every week, is enough for most small shops to see Pinterest become a steady source of buyers.`,
  },
  {
    id: "seed-post-pinterest-for-affiliate-marketers",
    kind: "post",
    slug: "pinterest-for-affiliate-marketers",
    title: "Pinterest for affiliate marketers: the rules, and what works",
    description:
      "Affiliate links are allowed on Pinterest, with conditions. How to disclose them, why landing pages beat direct links, and how to build pins that earn.",
    author: AUTHOR,
    coverImage: "/samples/zero-based-budget-beginners-1.jpg",
    coverAlt: "Stacks of coins, a pink piggy bank and a rising bar chart on a desk",
    publishedAt: Date.UTC(2026, 10, 10, 9),
    body: `Pinterest allows affiliate links, and many affiliate marketers earn a good share of their income from it. But accounts that only post bare affiliate links to products they never used tend to be shown less, and some get flagged as spam. A few rules keep your account healthy and your pins earning.

## Always disclose

Many countries require you to say when you earn money from a link, and Pinterest asks for it too. Add a short, plain disclosure to the pin description, such as *This pin contains affiliate links; I may earn a commission*. It costs nothing in clicks and protects your account.

## Link to your own page first

A pin that leads to your own review or guide, which then links to the product, has three advantages over a pin straight to the merchant:

- you can explain why the product is worth buying, which raises the share of clicks that turn into sales;
- you keep the reader's attention on your site, where they may join your newsletter;
- if a merchant closes their programme, you change one link on your page instead of hundreds of pins.

Use direct affiliate links only where the programme allows it, and only for products you know well.

## Make pins that help, not just sell

The affiliate pins that perform best do not look like adverts. They look like answers: *The 5 best budget stand mixers we tested*, *What I pack for a week of hiking*, *Everything you need to start watercolour painting*. The product appears as the solution to a real question.

## Volume with variety

Affiliate marketers often promote many products, which makes a steady stream of fresh pins easy, as long as each pin is genuinely different. Use templates for consistent branding, but change the photo and the headline for every pin. The [pin generator](/generate) can take product pages, your own review posts or a CSV file of products as the source.

## Watch what earns

Look at earnings per pin, not only clicks. A pin with fewer clicks that leads to an expensive product can be worth more than a viral pin for a cheap one. Every month, make new designs for the pins that earned and drop the ones that did not.

## A note on our own affiliate programme

If you like Pinboard Studio and write about Pinterest marketing, you can earn a commission on every plan bought through your link. The [affiliate page](/affiliate) explains the terms and lets you sign up in a minute.`,
  },
  {
    id: "seed-page-about",
    kind: "page",
    slug: "about",
    title: "About Pinboard Studio",
    description: "Who makes Pinboard Studio, what it is for, and how to reach us.",
    author: AUTHOR,
    coverImage: null,
    coverAlt: null,
    publishedAt: Date.UTC(2026, 9, 1, 9),
    body: `Pinboard Studio is a web application for people who market on Pinterest: bloggers, shop owners, affiliate marketers and agencies.

We built it because making fresh pins by hand, every day, for every post and product, is slow work that few people have time for. Pinboard Studio turns a blog post, a sitemap, an RSS feed, a product listing or a row of a CSV file into finished pin images and videos from templates, lets AI draft titles, descriptions and alt text, and schedules the pins to your Pinterest profiles so they go out on their own at the times you choose.

## What we believe

- **Fresh beats frequent.** A steady flow of new designs does more than reposting the same picture.
- **Your time is the scarce part.** Anything a computer can do for you, it should.
- **Honest pricing.** Plans come with a monthly number of pin credits, a free plan to try everything, and no surprises. Refunds are not offered, so the free plan is there to let you be sure first.

## Learn more

- [The blog](/blog): practical guides to Pinterest marketing.
- [Help centre](/help): how every part of the app works.
- [Pricing](/pricing): the plans and what they include.

## Contact

Write to us at [hello@pinboard.studio](mailto:hello@pinboard.studio). We read every message.`,
  },
];
