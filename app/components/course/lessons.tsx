import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

export interface Lesson {
  /** The lesson's address: /pinterest-mini-course?lesson=<slug>. */
  slug: string;
  title: string;
  /** One sentence: what the reader can do after the lesson. */
  summary: string;
  minutes: number;
  body: ReactNode;
}

/**
 * The Pinterest mini-course: six short lessons, from how Pinterest works to a
 * schedule that runs on its own. Numbers about the product (credit costs,
 * default schedule) are the ones of spec section 9.
 */
export const LESSONS: Lesson[] = [
  {
    slug: "how-pinterest-works",
    title: "How Pinterest sends you traffic",
    summary: "Why Pinterest behaves like a search engine, and what that means for what you publish.",
    minutes: 4,
    body: (
      <>
        <p>
          Pinterest looks like a social network, but people use it like a search engine. They come to plan: tonight's dinner, a kitchen makeover, a wedding, a
          new side business. They type what they want, save the ideas they like and click through to the pages that promise to help. That is why a blogger or a
          shop owner can get steady visitors from Pinterest without a large following.
        </p>
        <h3>Pins live for months, not hours</h3>
        <p>
          A post on most social networks is forgotten within a day. A pin keeps being shown for as long as people search for its topic, and it often takes weeks
          before it reaches its audience. The pins you publish this month build the traffic of the next six. Judge a pin after 30 days, not after 30 minutes.
        </p>
        <h3>Pinterest decides who sees a pin mostly from its words</h3>
        <p>
          Pinterest reads the pin's title and description, the text on the image, the board it is saved to and the page it links to. When these all speak about
          the same topic with the words people search for, the pin is shown in those searches and in the feeds of people interested in the topic.
        </p>
        <h3>Fresh pins win</h3>
        <p>
          Pinterest favours new images. A new design for a post you published years ago counts as a fresh pin; saving the same image again and again does not.
          The accounts that grow publish new pins every day, spread across the week, for months.
        </p>
        <p>
          The rest of this course turns these three facts into a routine: a profile and boards Pinterest understands (lesson 2), the words people search for
          (lesson 3), pins that get clicked (lesson 4), and enough of them, published steadily, without it eating your week (lessons 5 and 6).
        </p>
      </>
    ),
  },
  {
    slug: "profile-and-boards",
    title: "Set up a profile and boards Pinterest understands",
    summary: "A business account, a claimed website and 10 to 15 boards named the way people search.",
    minutes: 5,
    body: (
      <>
        <p>Your profile and boards are the frame every pin sits in. An hour spent here pays off on every pin you publish.</p>
        <h3>Use a free business account and claim your website</h3>
        <p>
          A business account costs nothing and gives you analytics and rich pins. Claim your website in the account settings: your pins then show your name and
          logo, and you can see the results of every pin that links to your site, including the ones other people saved.
        </p>
        <h3>Name your profile for a search</h3>
        <p>
          Put what you offer next to your name: "Anna | Easy Vegan Dinners" tells both people and Pinterest what to expect. Write a bio of one or two sentences
          that says who you help and why they should visit your site.
        </p>
        <h3>Create 10 to 15 focused boards</h3>
        <ul>
          <li>One topic per board, named with the words people type: "Vegan Meal Prep", not "Yum!".</li>
          <li>A description of one or two sentences that uses the same words.</li>
          <li>Your most important boards in the top row of your profile.</li>
          <li>Five to ten pins on each board before you start, so none looks empty.</li>
        </ul>
        <p>Shop owners: install the Pinterest tag on your checkout and connect your product catalog, so products can appear as shoppable pins.</p>
        <p>
          <strong>With Pinboard Studio:</strong> connect your Pinterest profile once; your boards and board sections appear when you schedule, so each pin goes
          to the right board without copying names around. Agencies can connect several profiles and switch between them.
        </p>
      </>
    ),
  },
  {
    slug: "keywords",
    title: "Find the words people search for",
    summary: "Collect keywords from Pinterest itself and write titles, descriptions and alt text around them.",
    minutes: 5,
    body: (
      <>
        <p>Keywords are how your pin meets the person searching. Find them where your audience types them: in Pinterest's own search.</p>
        <h3>Collect keywords in ten minutes</h3>
        <ol>
          <li>Type your topic into Pinterest's search bar and note the suggestions that appear.</li>
          <li>Search for one of them and note the refining words shown under the search bar.</li>
          <li>Open Pinterest Trends to see which topics are rising and when each season peaks.</li>
          <li>Keep a list per board: one main keyword and a handful of related ones.</li>
        </ol>
        <h3>Write around one main keyword</h3>
        <ul>
          <li>
            <strong>Title:</strong> start with the main keyword and make it read like a headline: "Easy Vegan Chickpea Curry in 15 Minutes".
          </li>
          <li>
            <strong>Description:</strong> two or three sentences. The important words first, what the reader gets, and a reason to click.
          </li>
          <li>
            <strong>Alt text:</strong> describe the image for people using screen readers. It helps accessibility first and search second.
          </li>
        </ul>
        <p>Avoid piles of hashtags and comma-separated keyword lists: they read as spam to people and to Pinterest.</p>
        <p>
          <strong>With Pinboard Studio:</strong> the AI writer rewrites titles (kept under 40 characters), descriptions (between 200 and 500 characters) and alt
          text for every pin. Give it your keywords, one phrase per line, and it works them in naturally; leave the box empty for a free rewrite. Each AI text
          costs 0.5 pin credits, alt text from the image 2.
        </p>
      </>
    ),
  },
  {
    slug: "pin-design",
    title: "Design pins that get clicked",
    summary: "The size, text and contrast that make a pin readable at a glance, and why you want several designs per post.",
    minutes: 5,
    body: (
      <>
        <p>Most people browse Pinterest on a phone, scrolling fast. Your pin has about a second to say what it is and why it is worth a tap.</p>
        <h3>The basics</h3>
        <ul>
          <li>
            <strong>Vertical 2:3, 1000 by 1500 pixels.</strong> Taller pins get cropped; square ones look small next to their neighbours.
          </li>
          <li>
            <strong>A title on the image,</strong> five to eight words in a heavy font, readable at thumbnail size.
          </li>
          <li>
            <strong>High contrast:</strong> dark text on a light band or light text on a dark overlay. If you squint on your phone, so does everyone else.
          </li>
          <li>
            <strong>Show the result:</strong> the finished dish, the styled room, the product in use.
          </li>
          <li>
            <strong>Light branding:</strong> two fonts, two or three colours and your address at the bottom.
          </li>
        </ul>
        <h3>Three to five designs per post</h3>
        <p>
          Different photos, titles and layouts for the same post give you fresh pins to publish over several weeks, and show you which angle your audience
          prefers. Short vertical videos of 6 to 15 seconds with a text overlay stand out among still images too.
        </p>
        <p>
          <strong>With Pinboard Studio:</strong> pick from more than 100 templates and 18 colour palettes, or build your own in the{" "}
          <Link to="/templates">template editor</Link> with your fonts and colours. Every template renders every post, so five designs per post is a click, not
          an afternoon; what you see in the preview is exactly the image that is posted.
        </p>
      </>
    ),
  },
  {
    slug: "pins-in-bulk",
    title: "Make a month of pins in one sitting",
    summary: "Turn a blog, a feed, a shop or a spreadsheet into pins in bulk, and what it costs in credits.",
    minutes: 4,
    body: (
      <>
        <p>
          Publishing fresh pins every day means making a lot of them. The way to keep it up is batching: make a week or a month of pins in one sitting, then let
          a scheduler publish them.
        </p>
        <h3>Start from what you already have</h3>
        <ul>
          <li>
            <strong>A blog post's address:</strong> the title, description and images are read from the page.
          </li>
          <li>
            <strong>A sitemap or an RSS feed:</strong> every post at once, or only the newest.
          </li>
          <li>
            <strong>Your shop:</strong> products from Etsy, Shopify or WooCommerce, with their photos and prices.
          </li>
          <li>
            <strong>A CSV file:</strong> one row per pin for anything else.
          </li>
        </ul>
        <h3>A batch routine</h3>
        <ol>
          <li>Pick 10 posts or products: your best sellers and the ones in season soon.</li>
          <li>Generate them with three or four templates each: 30 to 40 fresh pins.</li>
          <li>Let the AI writer tune titles and descriptions to your keywords, then read them through.</li>
          <li>Schedule them all (lesson 6). An hour a week keeps a daily schedule full.</li>
        </ol>
        <p>
          <strong>With Pinboard Studio:</strong> paste an address on the <Link to="/generate">Generate</Link> page or connect a shop on{" "}
          <Link to="/products">Products</Link>. An image pin costs 1 pin credit when it is pinned, downloaded or scheduled, a video pin 5. Credits come with
          your plan each month; see <Link to="/pricing">pricing</Link>.
        </p>
      </>
    ),
  },
  {
    slug: "schedule-and-measure",
    title: "Schedule steadily, then double down on what works",
    summary: "A daily rhythm you can keep, and a monthly review that tells you what to make next.",
    minutes: 5,
    body: (
      <>
        <p>Consistency beats volume. A rhythm you can sustain for months does more than a burst you abandon.</p>
        <h3>A schedule you can keep</h3>
        <ul>
          <li>Start with 5 to 10 pins a day while your bank of designs is small; build up to 15 to 25.</li>
          <li>Spread them through the day rather than publishing them all at once.</li>
          <li>Space out each address: the same link on different boards a few days apart.</li>
          <li>Publish seasonal content 30 to 45 days before the season peaks, when people start planning.</li>
        </ul>
        <h3>A monthly review in three questions</h3>
        <ol>
          <li>Which five pins earned the most outbound clicks, and what do they have in common?</li>
          <li>Which boards grew, and which topic deserves a new board?</li>
          <li>What season or event is 30 to 45 days away, and is its content scheduled?</li>
        </ol>
        <p>
          Then make three new designs for each of your five best addresses. Add UTM tags (utm_source=pinterest) to your links so your own analytics shows which
          pins bring sign-ups and sales, not only visits.
        </p>
        <p>
          <strong>With Pinboard Studio:</strong> set your pins per day and your time windows once on <Link to="/scheduling">Scheduling</Link> (20 pins a day, 15
          minutes apart, is the starting point), then bulk-schedule a whole batch into your queue. Pins are posted at their times whether or not your computer
          is on, and your pin history shows what went out.
        </p>
        <p>
          That is the whole routine: boards that match searches, keywords, pins that get clicked, batches, and a steady schedule.{" "}
          <Link to="/savings-calculator">Work out how much time it saves you</Link>, or <Link to="/signup">create a free account</Link> and make your first
          batch today.
        </p>
      </>
    ),
  },
];
