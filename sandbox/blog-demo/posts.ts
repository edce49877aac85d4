/**
 * Content of the demo blog ("Linen & Lark") that the sandbox serves under
 * /blog-demo. Everything is plain data so pages can be rendered from memory.
 *
 * Image files live in ./images/ and are produced by ./generate-images.ts, which
 * reads this list: the file names, sizes and formats below are the source of
 * truth for both the generator and the server.
 */

export interface DemoImage {
  /** File name inside sandbox/blog-demo/images/ (served at /blog-demo/images/<file>). */
  file: string;
  alt: string;
  width: number;
  height: number;
}

export interface DemoPost {
  slug: string;
  title: string;
  /** 120-160 characters; used for the meta description, og:description and the feed. */
  description: string;
  /** ISO 8601 date-time (UTC). */
  publishedAt: string;
  category: string;
  /** File name of the lead image; always the same as images[0].file. */
  leadImage: string;
  /** Article images in page order; the first one is the lead image (landscape). */
  images: DemoImage[];
  paragraphs: string[];
  /** Section headings (h2), each shown before the paragraph of its index. */
  headings?: Record<number, string>;
  /** A list shown after the paragraph of index `after`, under its own heading. */
  list?: { heading: string; ordered?: boolean; items: string[]; after: number };
  /** A quotation (blockquote) shown after the paragraph of index `after`. */
  quote?: { text: string; after: number };
}

export const BLOG_TITLE = "Linen & Lark";
export const BLOG_TAGLINE = "Everyday recipes, slow travel, cozy homes and small habits that add up.";
export const BLOG_AUTHOR = "Maya Lindqvist";

function image(slug: string, index: number, alt: string, width: number, height: number, ext: "jpg" | "png" = "jpg"): DemoImage {
  return { file: `${slug}-${index}.${ext}`, alt, width, height };
}

function post(data: Omit<DemoPost, "leadImage">): DemoPost {
  return { ...data, leadImage: data.images[0]!.file };
}

export const DEMO_POSTS: DemoPost[] = [
  post({
    slug: "one-pan-lemon-garlic-chicken",
    title: "One-Pan Lemon Garlic Chicken and Potatoes for Busy Weeknights",
    description: "Crispy chicken thighs, golden potatoes and bright lemon roast together on one pan in 45 minutes, with almost no washing up afterwards.",
    publishedAt: "2025-03-04T08:30:00Z",
    category: "Recipes",
    images: [
      image("one-pan-lemon-garlic-chicken", 1, "Roasted lemon garlic chicken thighs and golden potatoes in a cast iron pan on a wooden table", 1200, 800),
      image("one-pan-lemon-garlic-chicken", 2, "Close-up of a plate of lemon chicken with herbs, lemon slices and a fork beside it", 1000, 1500),
    ],
    paragraphs: [
      "Some dinners earn a permanent spot in the rotation because they are impressive. This one earned it because it is forgiving. Chicken thighs, baby potatoes, a whole lemon and a head of garlic go onto one sheet pan, and forty-five minutes later you have crackly skin, potatoes that taste like they were fried, and a pan sauce that nobody had to stir.",
      "Start with bone-in, skin-on thighs if you can find them. They stay juicy even if you get distracted, and the rendered fat is what turns the potatoes golden. Pat the skin completely dry with paper towels; this single step does more for crispiness than any trick involving baking powder or high broiler heat.",
      "Halve the potatoes so the cut sides can sit flat against the pan. Toss them with olive oil, salt, pepper and a teaspoon of dried oregano, then nestle the chicken on top, skin side up. Slice the lemon into thin rounds and tuck them between the pieces, along with the garlic cloves still in their papery skins. The skins keep the garlic from burning while it turns soft and sweet inside.",
      "Roast at 220 °C (425 °F) on the upper-middle rack. Resist the urge to open the oven for the first thirty minutes. When the chicken reaches 80 °C inside and the skin is deeply browned, pull the pan out, squeeze the roasted garlic out of its skins and mash it into the pan juices with a spoon.",
      "Finish with a handful of chopped parsley and a squeeze of fresh lemon. Serve straight from the pan with a green salad or some crusty bread for the juices. Leftovers keep for three days in the fridge and reheat best in a hot oven rather than the microwave, so the skin has a chance to crisp up again.",
      "If you are cooking for two, use a smaller quarter sheet pan and keep the timing the same. For a dairy-free, gluten-free weeknight dinner that feels like a Sunday roast, it is hard to beat, and it scales up easily when friends drop by.",
    ],
  }),
  post({
    slug: "berry-smoothie-bowls",
    title: "5-Minute Berry Smoothie Bowls",
    description:
      "Thick, spoonable berry smoothie bowls made from frozen fruit in five minutes, plus a topping formula that keeps breakfast interesting all week.",
    publishedAt: "2025-02-18T07:00:00Z",
    category: "Recipes",
    images: [
      image(
        "berry-smoothie-bowls",
        1,
        "Purple berry smoothie bowl topped with banana slices, blueberries, strawberries and granola on a marble counter",
        1200,
        800,
      ),
      image("berry-smoothie-bowls", 2, "Two smoothie bowls seen from above with mint leaves and a wooden spoon", 1000, 1500),
      image("berry-smoothie-bowls", 3, "Frozen berries and sliced banana ready to be blended", 1080, 1080),
    ],
    paragraphs: [
      "A smoothie bowl is really just a smoothie that has been convinced to be thicker, and the whole secret is using less liquid than feels right. Most recipes drown the fruit, which is how you end up with a bowl of pink soup that swallows its toppings. Start with two tablespoons of milk and add more only when the blender truly refuses to move.",
      "The base I make most mornings is one cup of frozen mixed berries, half a frozen banana, a spoonful of plain Greek yogurt and a splash of oat milk. The banana gives body and sweetness, the yogurt adds protein, and the berries bring that deep purple colour that looks so good in photos.",
      "Use the tamper if your blender has one, or stop every fifteen seconds to scrape down the sides. A high-powered blender helps, but a regular one works if you let the fruit sit on the counter for five minutes first. The texture you want is soft-serve ice cream: it should hold a swirl on the spoon.",
      "For toppings, I follow a simple formula: something fresh, something crunchy and something rich. Fresh could be sliced banana, strawberries or kiwi. Crunchy is granola, toasted coconut or a sprinkle of cacao nibs. Rich might be a drizzle of almond butter or a handful of chopped walnuts. Pick one from each group and breakfast never feels repetitive.",
      "To make weekday mornings even faster, portion the fruit into freezer bags on Sunday. Each bag holds one serving of berries and banana, so all you need to do is tip it into the blender with the yogurt and milk. Five minutes from fridge to table, and the bowl is done before the coffee finishes brewing.",
      "Smoothie bowls are also a great way to use up fruit that is about to turn. Slice overripe bananas, freeze them flat on a tray, and you will always have the creamy base ready to go.",
    ],
  }),
  post({
    slug: "cozy-small-living-room-ideas",
    title: "12 Cozy Small Living Room Ideas That Make a Tiny Space Feel Bigger",
    description:
      "Practical small living room ideas: layered lighting, leggy furniture, mirrors and a smarter rug size to make a tiny space feel warm and open.",
    publishedAt: "2025-01-27T10:00:00Z",
    category: "Home Decor",
    images: [
      image(
        "cozy-small-living-room-ideas",
        1,
        "Small living room with a mustard sofa, a floor lamp, a potted plant and framed art on a sage green wall",
        1200,
        800,
      ),
      image("cozy-small-living-room-ideas", 2, "Corner of a cozy living room with a bookshelf, an armchair and warm window light", 1000, 1500),
    ],
    paragraphs: [
      "A small living room has to work harder than a big one. It is where you read, host, fold laundry and occasionally eat dinner on the sofa. The good news is that the tricks that make a small room feel bigger are mostly free or cheap, and they make the room cozier at the same time.",
      "Start with the rug, because it is the mistake I see most often. A rug that floats in the middle of the floor makes a room look chopped up. Choose one large enough that at least the front legs of every seat rest on it. The floor reads as one generous zone, and the room instantly looks more deliberate.",
      "Next, lift your furniture off the floor. Sofas and side tables on slim legs let light travel underneath them, which tricks the eye into reading more floor area. A leggy sofa in a warm colour like mustard or rust anchors the room without feeling heavy.",
      "Layer your lighting. One ceiling light flattens everything, while three or four smaller sources at different heights create pockets of warmth. A floor lamp beside the sofa, a small table lamp on a shelf and a string of warm bulbs behind a plant will change the mood more than any new piece of furniture.",
      "Hang curtains high and wide. Mount the rod close to the ceiling and let the panels extend beyond the window frame on both sides. The window looks taller and larger, and more daylight reaches the room when the curtains are open. A mirror opposite or beside the window doubles that light again.",
      "Finally, edit. Keep surfaces mostly clear and group small objects in threes on a tray so they read as one intentional display. Give every item a home, and choose storage with doors for the clutter you do not want to see. A calm room always feels bigger than a full one.",
    ],
    headings: {
      1: "1. Choose a bigger rug",
      2: "2. Lift furniture off the floor",
      3: "3. Layer your lighting",
      4: "4. Hang curtains high and wide",
      5: "5. Edit your surfaces",
    },
  }),
  post({
    slug: "balcony-herb-garden",
    title: "How to Start a Balcony Herb Garden",
    description: "Everything you need to grow basil, mint, rosemary and thyme on a small balcony: choosing pots, soil, sunlight, watering and harvesting tips.",
    publishedAt: "2025-04-12T09:15:00Z",
    category: "Gardening",
    images: [
      image("balcony-herb-garden", 1, "Terracotta pots of basil, rosemary and mint lined up along a sunny balcony railing", 1200, 800),
      image("balcony-herb-garden", 2, "Herb seedlings in small pots on a wooden balcony shelf in the morning sun", 1000, 1500),
    ],
    paragraphs: [
      "You do not need a garden to grow your own herbs. A balcony, a sunny windowsill or even a fire escape with a railing planter can keep you in basil and mint all summer long, and fresh herbs are one of the easiest ways to make simple food taste special.",
      "First, watch the light. Spend a day noting when the sun reaches your balcony and when it leaves. Most Mediterranean herbs, such as rosemary, thyme, oregano and sage, want at least six hours of direct sun. Parsley, chives and mint are happy with four. If your balcony faces north, focus on the second group and you will still have plenty to harvest.",
      "Choose pots with drainage holes, always. Terracotta breathes and suits the drought-loving herbs, while glazed or plastic pots hold moisture longer for thirsty basil and parsley. Give each plant a pot at least fifteen centimetres wide, and plant mint on its own because it will happily strangle its neighbours.",
      "Use a good peat-free potting mix rather than garden soil, which compacts in containers. Mix in a handful of perlite or grit for rosemary and thyme. Water deeply when the top two centimetres of soil feel dry, ideally in the morning, and let the excess drain away. On windy balconies pots dry out surprisingly fast, so check them daily in midsummer.",
      "Harvest often and from the top. Pinching out the growing tips of basil just above a pair of leaves encourages the plant to branch and become bushy instead of tall and leggy. Remove flower buds as soon as they appear to keep the leaves tender and full of flavour.",
      "Start small: three or four herbs you actually cook with. Once you see how much a single pot of basil can produce, you will find yourself planning next year's balcony before this one is over.",
    ],
    quote: { text: "A pot of basil on a sunny railing will feed you all summer.", after: 0 },
  }),
  post({
    slug: "amalfi-coast-itinerary",
    title: "A Slow 5-Day Amalfi Coast Itinerary Without a Car",
    description: "How to spend five unhurried days on the Amalfi Coast using ferries, buses and your own two feet, with where to stay, swim, eat and hike.",
    publishedAt: "2024-11-20T12:00:00Z",
    category: "Travel",
    images: [
      image("amalfi-coast-itinerary", 1, "Pastel houses stacked on a cliff above a turquoise sea with a small boat on the Amalfi Coast", 1200, 800),
      image("amalfi-coast-itinerary", 2, "View along the Amalfi coastline at sunset with sailboats and lemon trees", 1000, 1500),
    ],
    paragraphs: [
      "Driving the Amalfi Coast sounds romantic until you meet a tour bus on a hairpin bend. The coast is best explored without a car: ferries link the main towns, local buses reach the hill villages, and the most beautiful views are found on footpaths that no vehicle could use.",
      "Base yourself in one town rather than moving every night. Amalfi itself is the practical choice because it is the hub for both ferries and buses. Positano is more glamorous and more expensive, while Minori and Atrani are quieter and still a short walk or boat ride away from everything.",
      "Day one is for arriving slowly. Take the ferry from Salerno instead of the bus from Naples, watch the villages appear one by one from the water, and spend the evening wandering the lanes above the cathedral. Day two, hike the Path of the Gods from Bomerano to Nocelle early in the morning, then walk down the steps to Positano for a late lunch and a swim.",
      "On day three, ride the bus up to Ravello for the gardens of Villa Rufolo and Villa Cimbrone, where the Terrace of Infinity looks straight down onto the sea. Day four is a boat day: join a small group tour to the island of Capri or simply rent a gozzo with a skipper and hop between coves that are impossible to reach on foot.",
      "Keep the last day unplanned. Buy lemons and bread at the market, find a beach club with sunbeds, and order a plate of scialatielli with clams. The coast rewards people who slow down to its pace.",
      "Travel in May, June or late September if you can. The sea is warm enough for swimming, the ferries run a full schedule, and the crowds are a fraction of those in August. Pack comfortable shoes, because every town is built on stairs.",
    ],
    quote: { text: "The coast rewards people who slow down to its pace.", after: 4 },
  }),
  post({
    slug: "mountain-cabin-weekend-packing-list",
    title: "Mountain Cabin Weekend Packing List",
    description:
      "A tried-and-tested packing list for a cozy mountain cabin weekend: layers, hiking gear, simple meals, games and the small extras that matter.",
    publishedAt: "2024-10-08T16:45:00Z",
    category: "Travel",
    images: [
      image("mountain-cabin-weekend-packing-list", 1, "Wooden cabin with a glowing window among pine trees below snowy mountains at dusk", 1200, 800),
      image("mountain-cabin-weekend-packing-list", 2, "Mountain lake reflecting pine trees and peaks under a pastel evening sky", 1000, 1500),
    ],
    paragraphs: [
      "A weekend in a mountain cabin is the closest thing to a reset button I know. No schedule, a fire to tend and a trail outside the door. The trick to keeping it relaxing is packing well, because the nearest shop is usually a long, winding drive away.",
      "Clothing is all about layers. Mountain weather can swing from warm sunshine to cold rain in an hour, so bring a moisture-wicking base layer, a fleece or wool midlayer, and a waterproof shell. Add a warm hat and gloves even in late spring; evenings on the porch get chilly once the sun drops behind the ridge.",
      "For hiking, pack broken-in boots, wool socks, a small daypack, a refillable water bottle and a headlamp. Download offline maps before you leave, since phone signal in the valleys is patchy at best. A tiny first aid kit with blister plasters has saved more than one of my trips.",
      "Plan simple meals that mostly come together in one pot. A big batch of chili, pancake mix for slow breakfasts and ingredients for a cheese board cover most of a weekend. Bring coffee, a stovetop moka pot in case the cabin has none, and marshmallows for the fire pit.",
      "Then pack for the downtime, which is the whole point. A deck of cards, a paperback you have been meaning to read, a cozy pair of slippers and a thermos for sunset walks. Leave the laptop at home if you can.",
      "Finally, bring a trash bag and plan to leave the cabin cleaner than you found it. Check the fire rules before you arrive, and never leave food outside overnight in bear country.",
    ],
    list: {
      heading: "The short version",
      after: 4,
      items: [
        "Base layer, fleece and a waterproof shell",
        "Warm hat and gloves",
        "Broken-in hiking boots and wool socks",
        "Headlamp and offline maps",
        "A small first aid kit",
        "Chili, pancake mix and a cheese board",
        "Cards, a paperback and slippers",
      ],
    },
  }),
  post({
    slug: "zero-based-budget-beginners",
    title: "The Zero-Based Budget: A Beginner's Guide to Giving Every Dollar a Job",
    description:
      "Learn how zero-based budgeting works, how to set up your first monthly budget in under an hour, and how to stick with it when life gets messy.",
    publishedAt: "2025-01-06T06:00:00Z",
    category: "Personal Finance",
    images: [
      image("zero-based-budget-beginners", 1, "Stacks of coins, a pink piggy bank and a rising bar chart on a desk", 1200, 800),
      image("zero-based-budget-beginners", 2, "Glass jar of coins beside labeled cash envelopes and a calculator", 1000, 1500),
    ],
    paragraphs: [
      "A zero-based budget sounds strict, but it is really just a plan. Every month you take your expected income and assign every single dollar to a purpose, whether that is rent, groceries, savings or a weekend away, until income minus the plan equals zero. Nothing is left floating around to disappear on impulse buys.",
      "Start by writing down your take-home pay for the month. If your income varies, use the lowest month from the past year so that a slow month never catches you out. Then list your fixed costs: housing, utilities, insurance, minimum debt payments and subscriptions you are keeping.",
      "Next come the flexible categories, such as groceries, fuel, eating out and household supplies. Look at your last two months of bank statements to see what you actually spend rather than what you wish you spent. Budgets fail when they are built on optimism instead of real numbers.",
      "Whatever money is left gets a job too. Put it toward an emergency fund first, aiming for one month of essential expenses as a starting goal. After that, split it between paying down high-interest debt and saving for the goals that matter to you. Even twenty dollars a month into a named savings pot builds momentum.",
      "Expect your first three budgets to be wrong. That is normal. When you overspend in one category, move money from another and adjust next month's plan. The goal is not perfection but awareness: knowing where your money goes and choosing it on purpose.",
      "Set a weekly fifteen-minute money date to check your balances and categorize transactions. It keeps the budget alive and turns a chore into a habit that quietly changes your finances over a year.",
    ],
  }),
  post({
    slug: "diy-yarn-wall-hanging",
    title: "Easy DIY Yarn Wall Hanging in One Afternoon",
    description:
      "Make a colourful boho yarn wall hanging with a wooden dowel, leftover yarn and scissors. A relaxing, beginner-friendly craft for an afternoon.",
    publishedAt: "2024-12-02T14:00:00Z",
    category: "DIY Crafts",
    images: [
      image("diy-yarn-wall-hanging", 1, "After: the finished wall hanging with colourful yarn fringe on a wooden dowel above balls of yarn", 1200, 800),
      image("diy-yarn-wall-hanging", 2, "Before: the craft table from above with yarn balls, scissors and paper shapes", 1000, 1500),
    ],
    paragraphs: [
      "If you have a basket of yarn leftovers from old knitting projects, this wall hanging is the perfect way to use them. There is no weaving loom and no complicated knots, just a wooden dowel, a pair of sharp scissors and a couple of relaxed hours.",
      "Choose a palette of four or five colours before you start. Warm terracotta, mustard, cream and a pop of dusty pink look lovely together, but a set of blues and greens works just as well in a calm bedroom. Mixing chunky and thin yarns adds texture that catches the light.",
      "Cut your yarn into lengths roughly twice as long as you want the finished fringe, so about eighty centimetres for a forty-centimetre hanging. A hardback book makes a good template: wrap the yarn around it several times and cut along one edge to get many equal pieces at once.",
      "Attach each piece with a lark's head knot. Fold the strand in half, place the loop over the dowel, then pull the two tails through the loop and tighten. Work in colour blocks from left to right, or alternate colours for a striped look. Push the knots close together so no dowel shows between them.",
      "Once the dowel is full, lay the hanging flat and trim the fringe into a shape. A simple V or a gentle curve is easiest, but you can also cut a stepped pattern. Trim a little at a time; you can always take more off.",
      "Tie a length of yarn to both ends of the dowel for hanging, and add a few wooden beads if you like. The finished piece softens a bare wall and makes a thoughtful handmade gift for a new home.",
    ],
  }),
  post({
    slug: "20-minute-dumbbell-workout",
    title: "A 20-Minute Full-Body Dumbbell Workout You Can Do at Home",
    description:
      "A simple 20-minute full-body dumbbell workout for home: warm-up, three strength circuits and a cool-down, with tips for choosing your weights.",
    publishedAt: "2025-02-03T05:45:00Z",
    category: "Fitness",
    images: [
      image("20-minute-dumbbell-workout", 1, "Pair of dumbbells, a rolled yoga mat, a water bottle and a towel on a light wooden floor", 1200, 800),
      image("20-minute-dumbbell-workout", 2, "Kettlebell and sneakers on a teal exercise mat near a sunny window", 1000, 1500),
    ],
    paragraphs: [
      "You do not need a gym membership or an hour of free time to get stronger. Two dumbbells, a bit of floor space and twenty focused minutes, three times a week, are enough to build real strength and keep you feeling capable in everyday life.",
      "Begin with a three-minute warm-up: arm circles, bodyweight squats, hip hinges and a gentle march on the spot. The goal is to raise your heart rate and move every joint you are about to load. Skipping the warm-up is the fastest way to turn a good habit into a sore shoulder.",
      "The main workout is three circuits. In circuit one, do goblet squats and bent-over rows. Circuit two pairs reverse lunges with a shoulder press. Circuit three combines Romanian deadlifts with a floor chest press. Perform each exercise for forty seconds, rest twenty seconds, and repeat each circuit twice before moving on.",
      "Choose weights that make the last few repetitions of each set feel challenging while your form stays clean. For most beginners that means somewhere between four and ten kilograms per hand, but there is no shame in starting lighter. When the final reps start to feel easy, move up to the next weight.",
      "Finish with a two-minute cool-down: a hamstring stretch, a chest opener against the wall and a few slow, deep breaths lying on your back. Write down the weights you used so that next session you know exactly where to start.",
      "Consistency matters far more than intensity. Three short sessions every week for three months will change your strength more than one exhausting workout you dread and keep postponing.",
    ],
  }),
  post({
    slug: "rainy-day-activities-for-toddlers",
    title: "15 Screen-Free Rainy Day Activities for Toddlers and Preschoolers",
    description:
      "Easy screen-free rainy day activities for toddlers and preschoolers using things you already have at home: forts, sensory bins, art and games.",
    publishedAt: "2024-09-16T08:00:00Z",
    category: "Parenting",
    images: [
      image(
        "rainy-day-activities-for-toddlers",
        1,
        "Blanket fort with fairy lights beside a rainy window, colourful building blocks and crayons on the rug",
        1200,
        800,
      ),
      image("rainy-day-activities-for-toddlers", 2, "Wooden toys, stacking rings and a paper rainbow on a playroom rug", 1000, 1500),
    ],
    paragraphs: [
      "When the rain has been falling since breakfast and the little ones are bouncing off the walls, it helps to have a list ready. These activities use things most homes already have, take minutes to set up and keep toddlers and preschoolers busy without a screen in sight.",
      "Build a blanket fort. Drape sheets over the sofa and dining chairs, add cushions and a string of battery fairy lights, and suddenly the living room is a cave, a castle or a spaceship. Bring in picture books and a torch for a fort story time that can last an hour.",
      "Set up a sensory bin with dried pasta, rice or oats in a shallow storage box. Add scoops, measuring cups and a few small toys to bury and find. Lay an old sheet underneath and accept that some of it will end up on the floor; cleaning up can be part of the game.",
      "Tape a big sheet of paper to the floor and let them draw around each other's bodies, then decorate the outlines. Paint with water on a chalkboard, make a rainbow collage from magazine scraps, or turn toilet rolls into binoculars for a window bird hunt.",
      "Movement games help burn energy. Make an obstacle course from cushions, play freeze dance with a favourite playlist, or set up masking-tape roads on the floor for toy cars. A balloon keep-up game is surprisingly good fun for all ages.",
      "Finally, invite them to help in the kitchen. Toddlers can wash vegetables, stir muffin batter and count out spoonfuls. Rainy days become memories when the whole family slows down and plays together.",
    ],
  }),
  post({
    slug: "fall-capsule-wardrobe",
    title: "How to Build a Fall Capsule Wardrobe With 30 Pieces",
    description:
      "Build a versatile fall capsule wardrobe with 30 pieces: a warm colour palette, the core items to keep, and how to mix them into dozens of outfits.",
    publishedAt: "2024-09-30T11:30:00Z",
    category: "Fashion",
    images: [
      image("fall-capsule-wardrobe", 1, "Clothing rack with a camel coat, rust sweater and cream shirts in an autumn colour palette", 1200, 800),
      image("fall-capsule-wardrobe", 2, "Flat lay of a fall outfit with a knit sweater, jeans, ankle boots, scarf and sunglasses", 1000, 1500),
    ],
    paragraphs: [
      "A capsule wardrobe is a small collection of clothes that all work together. Instead of a packed closet and nothing to wear, you have thirty pieces you love that combine into more outfits than you can count. Fall is the perfect season to start, because layering multiplies your options.",
      "Begin with a palette. Pick two or three neutrals as your foundation, such as camel, cream and denim blue, then add two accent colours that suit your skin tone. Rust, olive and burgundy feel naturally autumnal. When every piece sits within the palette, almost everything matches everything else.",
      "Next, choose your core pieces. A typical split is nine tops, seven bottoms, five layers, five pairs of shoes and four dresses or jumpsuits. Think fine-knit sweaters, a crisp white shirt, straight-leg jeans, a midi skirt, a tailored blazer, a camel coat, ankle boots and a pair of clean white sneakers.",
      "Before buying anything, shop your own closet. Pull out everything that fits the palette and the season, try it on, and keep only what fits well and makes you feel good. Most people find they already own two thirds of their capsule. Write a short list of the gaps and buy those slowly, choosing quality fabrics that will last.",
      "Accessories are where personality comes in, and they do not count toward the thirty. A patterned silk scarf, a leather belt, gold jewellery and a structured bag can make the same jeans and sweater feel new every day of the week.",
      "At the end of the season, note what you wore most and what sat untouched. That simple review makes every future capsule easier to build.",
    ],
  }),
  post({
    slug: "backyard-wedding-on-a-budget",
    title: "Planning a Backyard Wedding on a Budget",
    description:
      "Plan a beautiful backyard wedding on a budget: guest list, rentals, string lights, flowers, food and a realistic timeline so the day runs smoothly.",
    publishedAt: "2024-08-22T15:00:00Z",
    category: "Wedding",
    images: [
      image("backyard-wedding-on-a-budget", 1, "Backyard wedding at dusk with string lights, a floral arch and tables with white tablecloths", 1200, 800),
      image("backyard-wedding-on-a-budget", 2, "Three-tier white wedding cake decorated with blush flowers and greenery", 1000, 1500),
    ],
    paragraphs: [
      "A backyard wedding can be the most personal celebration imaginable. There is no venue fee, no strict schedule and no limit on how you decorate. It does, however, ask for more planning than a venue where everything is included, so start early and write everything down.",
      "Set the guest list before anything else. The number of guests decides the rental order, the catering, the parking and even the number of portable toilets you will need. Most suburban gardens comfortably hold sixty to eighty seated guests, so measure the lawn and sketch a layout before sending invitations.",
      "Rentals are where the budget goes, so prioritize. Tables, chairs and a tent for rain are essential. Linens, glassware and a dance floor are nice to have. Ask the rental company for a weekday delivery discount, and borrow whatever you can from friends and family.",
      "Lighting transforms a garden after sunset. Festoon string lights crisscrossed above the tables create an instant sense of occasion, and they cost far less than professional uplighting. Add lanterns along paths and candles in jars on every table for a warm glow.",
      "For flowers, buy in bulk from a wholesale market or a local grower a day or two before, and spend an evening arranging them with your bridal party. Simple jars of seasonal blooms and greenery look abundant without a florist's price tag. Food trucks or a family-style barbecue feed a crowd affordably.",
      "Finally, appoint a day-of coordinator, whether a professional or your most organized friend, so that you can actually enjoy the celebration. Give them the timeline, the vendor contacts and permission to solve problems without asking you.",
    ],
  }),
  post({
    slug: "sunday-weekly-planning-routine",
    title: "My Sunday Weekly Planning Routine",
    description: "A calm 30-minute Sunday weekly planning routine to review last week, set three priorities, time-block the calendar and plan meals ahead.",
    publishedAt: "2025-03-23T18:00:00Z",
    category: "Productivity",
    images: [
      image("sunday-weekly-planning-routine", 1, "Desk from above with an open planner, checklist, coffee mug, pen, sticky notes and a laptop", 1200, 800),
      image("sunday-weekly-planning-routine", 2, "Wall calendar above a tidy desk with a lamp, notebook and small plant", 1000, 1500),
      image("sunday-weekly-planning-routine", 3, "Colourful sticky notes arranged in a weekly grid", 1080, 1080, "png"),
    ],
    paragraphs: [
      "Every Sunday evening I spend thirty minutes with a cup of tea, my planner and my calendar. It is the single habit that most changed how my weeks feel. Instead of Monday morning arriving like a wave, I start the week knowing what matters and when it will happen.",
      "The first ten minutes are for looking back. I flip through last week's pages and ask three questions: what went well, what did not get done, and what did I learn? Unfinished tasks either move to this week, get delegated, or are crossed out for good. Being honest here stops the to-do list from growing forever.",
      "Next, I choose three priorities for the coming week. Not ten, three. They are the outcomes that would make the week a success even if everything else slipped. I write them at the top of the page where I will see them every day.",
      "Then I open my calendar and time-block. Appointments and meetings go in first, then I find homes for the three priorities, ideally in the mornings when my focus is sharpest. Workouts, errands and rest get blocks too. If something does not fit, I would rather find out on Sunday than on Thursday afternoon.",
      "The last few minutes are for practical things: a quick meal plan for the week, a grocery list, and a look at the weather so I know which days suit a walk or a run. Planning dinners alone saves me hours and a lot of takeaway money.",
      "The routine works because it is short and pleasant. Light a candle, play some music and make it something you look forward to rather than another chore on the list.",
    ],
    list: {
      heading: "The routine at a glance",
      ordered: true,
      after: 4,
      items: ["Review last week", "Choose three priorities", "Time-block the calendar", "Plan meals and groceries", "Check the weather"],
    },
  }),
  post({
    slug: "golden-hour-phone-photography",
    title: "Golden Hour Photography Tips for Better Phone Photos",
    description:
      "Simple golden hour photography tips for your phone: when to shoot, where to stand, how to expose for the light and edit for warm, natural photos.",
    publishedAt: "2024-07-14T19:30:00Z",
    category: "Photography",
    images: [
      image("golden-hour-phone-photography", 1, "Golden hour landscape with a low sun over rolling fields and silhouetted trees", 1200, 800),
      image("golden-hour-phone-photography", 2, "Camera with a large lens in front of warm golden bokeh lights", 1000, 1500),
    ],
    paragraphs: [
      "Golden hour is the hour or so after sunrise and before sunset when the sun sits low in the sky. Its light is soft, warm and directional, and it flatters almost everything: faces, food, buildings and landscapes. The best part is that you do not need an expensive camera to use it; your phone is more than enough.",
      "Plan ahead with a weather or photography app that shows the exact time of sunset where you are. Arrive at least thirty minutes early. The light changes fast, and the most magical few minutes often come just before the sun touches the horizon.",
      "Think about where the light comes from. Shooting with the sun behind your subject creates a glowing rim of light around hair and leaves, while side light brings out texture in stone, bark and fabric. Facing the sun directly can cause flare; shade the lens with your hand or use the flare on purpose for a dreamy look.",
      "Expose for the highlights. Tap on the brightest part of the scene, then drag the exposure slider down slightly until the sky keeps its colour. It is much easier to brighten shadows later than to recover a blown-out sky. Turn off the flash, and use portrait mode for people to soften the background.",
      "When editing, resist cranking up saturation. Instead, warm the white balance a touch, lift the shadows gently and add a little contrast. A subtle edit keeps the natural glow that made the moment special in the first place.",
      "Most of all, keep shooting after the sun has set. The blue hour that follows brings cool, even light that pairs beautifully with the warm glow of street lamps and windows.",
    ],
  }),
];

export function findPost(slug: string): DemoPost | undefined {
  return DEMO_POSTS.find((p) => p.slug === slug);
}
