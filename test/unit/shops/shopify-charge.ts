/** The Pro monthly app charge the Shopify client tests ask for (a test charge, with the trial the app offers). */
export const PRO_MONTHLY_CHARGE = {
  name: "Pinboard Studio Pro (monthly)",
  price: 29.99,
  interval: "EVERY_30_DAYS" as const,
  returnUrl: "http://app.test/pricing?provider=shopify",
  trialDays: 7,
  test: true,
};
