/**
 * Writes public/success-plan.pdf, "The Pinterest Success Plan" that the newsletter popup offers
 * (served statically at /success-plan.pdf). Run it after changing the text below:
 *
 *   npx node scripts/generate-success-plan.ts
 *
 * The output is reproducible (fixed dates, no random ids), so regenerating without edits leaves
 * the committed file unchanged. Standard Helvetica fonts only: text must stay plain ASCII
 * (WinAnsi has no curly quotes or emoji).
 */
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { BRAND, BRAND_DARK, drawLine, Flow, footers, INK, MARGIN, MUTED, PAGE, runs, WHITE, wrap, type Fonts } from "./pdf/layout.ts";

export const SUCCESS_PLAN_TITLE = "The Pinterest Success Plan";
const OUTPUT = fileURLToPath(new URL("../public/success-plan.pdf", import.meta.url));
/** The date the content was last revised: keeps the file byte-identical between runs. */
const REVISED = new Date("2025-01-06T09:00:00Z");

// ---- the document --------------------------------------------------------------------------------

export async function buildSuccessPlan(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(SUCCESS_PLAN_TITLE, { showInWindowTitleBar: true });
  doc.setAuthor("Pinboard Studio");
  doc.setSubject("A 30-day Pinterest marketing plan for bloggers and shop owners: profile, boards, pin design, keywords, posting schedule and analytics.");
  doc.setKeywords(["Pinterest", "Pinterest marketing", "pin design", "keywords", "posting schedule", "bloggers", "shop owners"]);
  doc.setCreator("Pinboard Studio");
  doc.setProducer("Pinboard Studio (pdf-lib)");
  doc.setLanguage("en-US");
  doc.setCreationDate(REVISED);
  doc.setModificationDate(REVISED);

  const fonts: Fonts = {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
  };

  cover(doc, fonts);
  const flow = new Flow(doc, fonts, SUCCESS_PLAN_TITLE);

  // ---- page 2: the idea and week 1
  flow.newPage();
  flow.section("Week 1: set up your profile and boards", "Start here");
  flow.paragraph(
    "Pinterest is a visual search engine, not a social feed. People come to plan: dinners, rooms, trips, gifts, businesses. A pin you publish today can bring visitors for months, because Pinterest keeps showing it to people who search for its topic. That is why a steady plan beats bursts of activity, and why the first week goes into foundations.",
  );
  flow.bullets([
    "**Switch to a free business account.** It unlocks analytics, rich pins and the Pinterest tag, and costs nothing.",
    '**Name your profile for a search.** Use your name or brand plus what you offer, for example "Anna | Easy Vegan Dinners". People and Pinterest both read it.',
    "**Write a bio that promises something.** Who you help and with what, in one or two sentences, plus a reason to visit your site.",
    "**Claim your website.** Add the meta tag or DNS record Pinterest gives you. Your pins then show your logo and name, and you see analytics for every pin from your site, including ones others saved.",
    "**Turn on rich pins.** Give your pages Open Graph or schema.org metadata (title, description, price for products); Pinterest uses it to keep pin details in sync with your site.",
    '**Create 10 to 15 focused boards.** One topic each, named the way people search ("Vegan Meal Prep", not "Yum!"), with a one- or two-sentence description that uses the same words. Put your most important boards in the top row.',
    "**Seed every board with 5 to 10 pins** - your own first, then the best relevant pins from others - so no board looks empty.",
    "**Shop owners:** install the Pinterest tag for checkout events and connect your product catalog, so every product can appear as a shoppable pin.",
  ]);
  flow.callout(
    "Tip",
    "Make a simple spreadsheet now with one row per blog post or product: URL, board(s) it belongs to, and its main keyword. It becomes your content bank for weeks 2 to 4 and for every month after.",
  );

  // ---- page 3: design
  flow.newPage();
  flow.section("Pin design that gets clicks", "Week 2");
  flow.paragraph(
    "Most people browse Pinterest on a phone, scrolling fast. Your pin has about a second to say what it is and why it is worth a tap. Design for that moment.",
  );
  flow.bullets([
    "**Use a 2:3 vertical image (1000 x 1500 px).** Taller pins may be cropped in the feed; square ones look small next to vertical neighbours.",
    '**Put a clear title on the image.** Five to eight words in a large, heavy font, readable at thumbnail size: "15-Minute Chickpea Curry" beats an unlabelled photo.',
    "**Keep contrast high.** Dark text on a light band or light text on a dark overlay. If you have to squint on your phone, so will everyone else.",
    "**Stay on brand, lightly.** Two fonts, two or three colours and a small logo or URL at the bottom make your pins recognisable without looking like ads.",
    '**Show the result or the benefit.** The finished dish, the styled room, the product in use; numbers and outcomes ("Save $200 a month") earn clicks.',
    "**Make 3 to 5 designs per URL.** Different photos, titles and layouts for the same post give you fresh pins to publish over several weeks and show you which angle works.",
    "**Try short video.** A 6 to 15 second vertical clip with a text overlay stands out among still images and needs no sound.",
  ]);
  flow.callout(
    "Save hours with templates",
    "Build four or five templates once - list post, recipe, product, quote, before-and-after - and generate every new pin from them. Consistent templates also make your pins recognisable in the feed.",
  );

  // ---- keywords
  flow.section("Keywords and descriptions", "Week 2");
  flow.paragraph(
    "Pinterest decides who sees a pin mostly from its words: the title, description, the board it is saved to and the text on the page it links to. Find the words your audience actually types, then use them naturally.",
  );
  flow.bullets(
    [
      "**Collect keywords from the search bar.** Type your topic and note the suggestions, then the refining words shown under a search. Pinterest Trends shows what is rising and when each season peaks.",
      "**Write a title of up to 100 characters** that starts with the main keyword and reads like a headline.",
      "**Write a description of 2 or 3 sentences** (up to 500 characters). Put the most important words in the first sentence, say what the reader gets, and end with a reason to click.",
      "**Add alt text** describing the image for people using screen readers. It helps accessibility first and search second.",
      "**Avoid keyword stuffing and piles of hashtags.** A comma-separated list of terms reads as spam to people and to Pinterest.",
    ],
    "number",
  );
  flow.callout(
    "Before and after",
    '**Before:** "Yummy dinner!! #food #vegan #easy #recipe"\n**After:** "Easy vegan chickpea curry ready in 15 minutes. A creamy weeknight dinner with pantry staples, naturally gluten-free and great for meal prep. Get the full recipe and shopping list."',
  );

  // ---- schedule
  flow.section("A posting schedule you can keep", "Week 3");
  flow.paragraph(
    "Consistency matters more than volume. Pinterest favours accounts that publish fresh pins regularly, and a pin often needs weeks to reach its audience, so a rhythm you can sustain for months beats a burst you abandon.",
  );
  flow.bullets([
    "**Start with 5 to 10 pins a day** while your content bank is small. Once you have the designs, build up to **15 to 25 pins a day, spread through the day** rather than all at once.",
    "**Favour fresh pins.** A new image for an existing URL counts as new; re-pinning the same image over and over does not.",
    "**Space out each URL.** Pin the same link to different relevant boards a few days apart, not all in one hour.",
    "**Plan seasons early.** People start searching for holidays and seasonal topics 30 to 45 days ahead, so publish that content before the peak, not during it.",
    "**Batch the work.** Create and schedule a week or two of pins in one sitting, then let a scheduler publish them.",
  ]);
  flow.subheading("A sample day at 20 pins");
  flow.table([
    ["Morning", "4 pins between 6 and 10 am: evergreen posts and best sellers."],
    ["Midday", "5 pins between 11 am and 3 pm: new designs for your top 10 URLs."],
    ["Evening", "7 pins between 5 and 10 pm, the busiest browsing hours: newest content and seasonal pins."],
    ["Night", "4 pins between 10 pm and 1 am for readers in other time zones."],
  ]);
  flow.paragraph(
    "These are starting times. After a month, check when your own audience is most active (Analytics, Audience insights) and move your pins there.",
    {
      size: 9.5,
      color: MUTED,
    },
  );

  // ---- measure
  flow.section("Measure and improve", "Week 4");
  flow.paragraph(
    "Look at your numbers once a week for trends and once a month for decisions. Pins are slow burners: judge a pin after 30 days, not after 30 minutes.",
  );
  flow.table(
    [
      ["Impressions", "How often your pins were shown. Rising impressions mean your keywords and boards work."],
      ["Saves", "People keeping your pin for later: the strongest signal that the idea resonates, and it spreads the pin further."],
      ["Outbound clicks", "Visits to your site. Divide by impressions for your click-through rate and compare pins with it."],
      ["Top URLs", "The pages that earn the most clicks. Give them more designs, more boards and seasonal variations."],
    ],
    110,
  );
  flow.bullets([
    "**Double down on winners.** Make three new designs for each of your five best URLs every month.",
    "**Learn from what flops.** Compare titles, images and boards of your weakest pins with your best ones; change one thing at a time.",
    "**Tag your links.** Add UTM parameters (utm_source=pinterest) so your web analytics shows which pins lead to sign-ups and sales, not just visits.",
    "**Keep old pins.** Deleting pins rarely helps; archive boards that no longer fit instead.",
  ]);
  flow.callout(
    "Monthly review: three questions",
    "1. Which five pins earned the most outbound clicks, and what do they have in common?\n2. Which boards grew, and which topics deserve a new board?\n3. What season or event is 30 to 45 days away, and is its content scheduled?",
  );

  // ---- checklist
  flow.newPage();
  flow.section("Your 30-day checklist", "Print me");
  flow.paragraph("Tick a box a day. By day 30 you have a complete profile, a bank of pins and a schedule that runs without you.", { color: MUTED });
  const weeks: [string, string[]][] = [
    [
      "Days 1-7: foundations",
      [
        "Switch to a business account and claim your website",
        "Rename your profile with a keyword and rewrite your bio",
        "Create 10 to 15 keyword-named boards with descriptions and covers",
        "Add Open Graph or schema.org metadata for rich pins (shops: install the tag and connect the catalog)",
        "Fill your content bank: every post or product with its URL, boards and keyword",
      ],
    ],
    [
      "Days 8-14: design and words",
      [
        "Build 4 or 5 pin templates in your brand fonts and colours",
        "Create 3 designs for each of your 10 best posts or products",
        "Collect 30 keywords from the search bar and Pinterest Trends",
        "Write titles, descriptions and alt text for every new pin",
      ],
    ],
    [
      "Days 15-21: schedule",
      [
        "Schedule two weeks of pins, spread through the day",
        "Build up from 5-10 to 15-25 pins a day as your bank grows",
        "Plan seasonal content for the next 45 days",
      ],
    ],
    [
      "Days 22-30: measure and improve",
      [
        "Add UTM tags to your pin links",
        "Find your top 5 pins and top 5 URLs in Analytics",
        "Make new designs for the winners and retire weak angles",
        "Book a monthly review and plan next month's content",
      ],
    ],
  ];
  for (const [title, items] of weeks) {
    flow.subheading(title);
    flow.bullets(items, "box");
  }
  flow.callout(
    "Do it faster with Pinboard Studio",
    "Pinboard Studio turns your blog URL, sitemap, RSS feed or products into on-brand pins from templates, writes titles, descriptions and alt text with AI, and bulk-schedules everything to your boards at the right times.",
  );

  footers(doc, fonts, "Pinboard Studio  |  The Pinterest Success Plan");
  return doc.save({ useObjectStreams: true });
}

function cover(doc: PDFDocument, fonts: Fonts) {
  const page = doc.addPage([PAGE.width, PAGE.height]);
  const bandHeight = 430;
  page.drawRectangle({ x: 0, y: PAGE.height - bandHeight, width: PAGE.width, height: bandHeight, color: BRAND });
  // A loose grid of pin-shaped tiles, the way a Pinterest feed looks.
  const columns = [
    [120, 170, 90],
    [180, 110, 140],
    [90, 150, 160],
    [160, 120, 100],
    [110, 180, 130],
  ];
  columns.forEach((heights, column) => {
    let y = PAGE.height - 24 - (column % 2) * 40;
    for (const height of heights) {
      page.drawRectangle({ x: 330 + column * 52, y: y - height, width: 44, height, color: WHITE, opacity: 0.12 + ((column + height) % 3) * 0.06 });
      y -= height + 8;
    }
  });
  page.drawText("PINBOARD STUDIO  |  FREE GUIDE", { x: MARGIN.left, y: PAGE.height - 70, size: 10, font: fonts.bold, color: WHITE });
  const titleSize = 40;
  ["The Pinterest", "Success Plan"].forEach((line, index) => {
    page.drawText(line, { x: MARGIN.left, y: PAGE.height - 250 - index * 46, size: titleSize, font: fonts.bold, color: WHITE });
  });
  const subtitle = wrap(
    runs("A 30-day playbook for bloggers and shop owners who want steady traffic and sales from Pinterest", fonts.regular, fonts.bold),
    15,
    300,
  );
  subtitle.forEach((line, index) => {
    drawLine(page, line, MARGIN.left, PAGE.height - 330 - index * 20, 15, WHITE);
  });

  let y = PAGE.height - bandHeight - 60;
  page.drawText("What is inside", { x: MARGIN.left, y, size: 14, font: fonts.bold, color: BRAND_DARK });
  y -= 28;
  const contents: [string, string][] = [
    ["Week 1", "Set up your profile and boards"],
    ["Week 2", "Pin design that gets clicks, keywords and descriptions"],
    ["Week 3", "A posting schedule you can keep"],
    ["Week 4", "Measure and improve"],
    ["Day 30", "A printable checklist to tick off day by day"],
  ];
  for (const [when, what] of contents) {
    page.drawCircle({ x: MARGIN.left + 5, y: y + 4, size: 5, color: BRAND });
    page.drawText(when, { x: MARGIN.left + 20, y, size: 11, font: fonts.bold, color: INK });
    page.drawText(what, { x: MARGIN.left + 80, y, size: 11, font: fonts.regular, color: INK });
    y -= 24;
  }
  page.drawText("About 20 minutes a day. No ads budget needed.", { x: MARGIN.left, y: y - 16, size: 10.5, font: fonts.italic, color: MUTED });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const bytes = await buildSuccessPlan();
  await writeFile(OUTPUT, bytes);
  const pages = (await PDFDocument.load(bytes)).getPageCount();
  console.log(`wrote ${OUTPUT}: ${pages} pages, ${(bytes.length / 1024).toFixed(1)} KB`);
}
