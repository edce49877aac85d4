import { greeting, plainName, quoted } from "../../domain/mail-text.ts";
import type { OutgoingEmail } from "../../integrations/email-message.ts";
import { escapeHtml } from "../../../contracts/html.ts";

/** The e-mails the product sends: each has a text part and an HTML part carrying the same links. */

/** The frame every e-mail shares: brand, heading, then `content` (HTML) in a card `width` pixels wide. */
function frame(title: string, content: string, width = 560) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;background:#f5f8f7;font-family:Arial,Helvetica,sans-serif;color:#1d2226">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="${width}" cellpadding="0" cellspacing="0" style="max-width:${width}px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<p style="font-weight:bold;color:#2f8f77;margin:0 0 24px">Pinboard Studio</p>
<h1 style="font-size:22px;margin:0 0 16px">${escapeHtml(title)}</h1>
${content}
</td></tr></table></td></tr></table></body></html>`;
}

const paragraph = (text: string) => `<p style="line-height:1.5;margin:0 0 16px">${escapeHtml(text)}</p>`;
const button = (action: { label: string; url: string }) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#2f8f77;color:#ffffff;padding:12px 20px;border-radius:999px;text-decoration:none;font-weight:bold">${escapeHtml(action.label)}</a></p>`;

function layout(title: string, paragraphs: string[], action: { label: string; url: string }, footer: string[] = []) {
  return frame(
    title,
    `${paragraphs.map(paragraph).join("\n")}
${button(action)}
<p style="font-size:13px;color:#6b7580;line-height:1.5">If the button does not work, copy this link into your browser:<br><a href="${escapeHtml(action.url)}" style="color:#2f8f77">${escapeHtml(action.url)}</a></p>
${footer.map((f) => `<p style="font-size:12px;color:#6b7580">${f}</p>`).join("\n")}`,
  );
}

export function verificationEmail(to: string, firstName: string, link: string): OutgoingEmail {
  const subject = "Verify your e-mail address";
  const lines = [
    // The address was typed at sign-up and is not proven yet: the name is shown only when it is a plain name.
    greeting(firstName),
    "Welcome to Pinboard Studio! Please confirm that this is your e-mail address so we can keep your account safe and send you what you ask for.",
    "The link works for 48 hours.",
  ];
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nVerify your e-mail: ${link}\n\nIf you did not sign up, you can ignore this e-mail.`,
    html: layout(subject, lines, { label: "Verify my e-mail", url: link }, ["If you did not sign up, you can ignore this e-mail."]),
  };
}

/** To an account's owner when someone signs up with their address (decision 083): sign-up never says an address has an account. */
export function existingAccountEmail(to: string, firstName: string, loginLink: string, resetLink: string): OutgoingEmail {
  const subject = "You already have a Pinboard Studio account";
  const lines = [
    greeting(firstName),
    "Someone (hopefully you) just tried to create a new Pinboard Studio account with this e-mail address. This address already has an account, so no new one was made.",
    "If it was you, log in with your password. If you have forgotten it, choose a new one from the login page.",
    "If it was not you, you need not do anything: your account has not changed.",
  ];
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nLog in: ${loginLink}\n\nForgot your password? ${resetLink}`,
    html: layout(subject, lines, { label: "Log in", url: loginLink }, [
      `Forgot your password? <a href="${escapeHtml(resetLink)}" style="color:#6b7580">Choose a new one</a>`,
    ]),
  };
}

export function passwordResetEmail(to: string, firstName: string, link: string): OutgoingEmail {
  const subject = "Reset your password";
  const lines = [
    greeting(firstName),
    "Someone (hopefully you) asked to reset the password of your Pinboard Studio account. Choose a new password with the link below.",
    "The link works once, for one hour. If you did not ask for it, ignore this e-mail: your password stays as it is.",
  ];
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nReset your password: ${link}`,
    html: layout(subject, lines, { label: "Choose a new password", url: link }),
  };
}

/** The List-Unsubscribe headers of a marketing e-mail: one click in mail apps (RFC 8058, decision 097). */
function listUnsubscribe(oneClick: string): Record<string, string> {
  return { "List-Unsubscribe": `<${oneClick}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** The newsletter's first e-mail: the Success Plan, with the newsletter's unsubscribe link and headers. */
export function successPlanEmail(to: string, downloadLink: string, unsubscribe: { page: string; oneClick: string }): OutgoingEmail {
  const unsubscribeLink = unsubscribe.page;
  const subject = "Your Pinterest Success Plan";
  const lines = [
    "Thanks for subscribing! Here is your free Pinterest Success Plan: a 30-day plan to set up your boards, design pins that get clicked and keep a posting schedule you can stick to.",
    "We will send you a short e-mail now and then with Pinterest tips. You can unsubscribe at any time.",
  ];
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nDownload the Success Plan (PDF): ${downloadLink}\n\nUnsubscribe: ${unsubscribeLink}`,
    html: layout(subject, lines, { label: "Download the Success Plan", url: downloadLink }, [
      `<a href="${escapeHtml(unsubscribeLink)}" style="color:#6b7580">Unsubscribe</a>`,
    ]),
    headers: listUnsubscribe(unsubscribe.oneClick),
  };
}

/**
 * A friend's gift (POST /api/referrals/sendReferralInvite): a free month of Starter through their invite link.
 * It goes to an address the sender typed (decision 080): their name is quoted and inert in the body, and the
 * subject names them only when it is a plain name.
 */
export function referralInviteEmail(to: string, fromName: string, link: string): OutgoingEmail {
  const name = plainName(fromName);
  const subject = name ? `${name} gifted you a free month of Pinboard Studio` : "A friend gifted you a free month of Pinboard Studio";
  const sender = quoted(fromName);
  const lines = [
    "Hi,",
    `${sender} uses Pinboard Studio to design pins and schedule them to Pinterest, and is giving you a free month of the Starter plan.`,
    "Open the link, sign up (or sign in) and claim your month. The link keeps your gift for 30 days.",
  ];
  const why = `You received this e-mail because ${sender} entered your address. We will not write to you again unless you sign up.`;
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nClaim your free month: ${link}\n\n${why}`,
    html: layout(subject, lines, { label: "Claim my free month", url: link }, [escapeHtml(why)]),
  };
}

/** A message from the contact page's feedback form, to the support address; replies go to the sender when they asked for one. */
export function feedbackEmail(to: string, feedbackText: string, userEmail: string, receivedAt: Date): OutgoingEmail {
  const firstLine = feedbackText.split(/\r\n|\r|\n|\u2028|\u2029/, 1)[0]!.trim();
  const subject = `Feedback: ${firstLine.length > 60 ? `${firstLine.slice(0, 59)}…` : firstLine}`;
  const from = userEmail ? `The sender would like a response at ${userEmail} (reply to this e-mail).` : "The sender did not ask for a response.";
  const when = `Sent from the contact page on ${receivedAt.toUTCString()}.`;
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1d2226">
<p style="white-space:pre-wrap;line-height:1.5">${escapeHtml(feedbackText)}</p>
<hr style="border:0;border-top:1px solid #dfe5e3">
<p style="font-size:13px;color:#4b5560">${escapeHtml(from)}<br>${escapeHtml(when)}</p>
</body></html>`;
  return { to, subject, text: `${feedbackText}\n\n--\n${from}\n${when}`, html, ...(userEmail ? { replyTo: userEmail } : {}) };
}

/** One line of a trend digest: what moved, in words, with its chart (if drawn) and the keyword tool's link. */
export interface TrendDigestLine {
  sentence: string;
  chart?: { url: string; alt: string };
  researchLink: string;
  researchLabel: string;
}

/**
 * A trend alert digest (decision 047): everything a user's alerts found in one
 * run, one e-mail. The unsubscribe link stops trend alert e-mails (it pauses the
 * alerts); List-Unsubscribe and List-Unsubscribe-Post make it one click in mail apps.
 */
export function trendAlertDigestEmail(
  to: string,
  firstName: string,
  subject: string,
  lines: TrendDigestLine[],
  links: { alertsPage: string; unsubscribePage: string; oneClickUnsubscribe: string },
): OutgoingEmail {
  const intro = [
    `Hi ${firstName},`,
    lines.length === 1
      ? "Your trend alerts found a keyword on the move on Pinterest:"
      : `Your trend alerts found ${lines.length} keywords on the move on Pinterest:`,
  ];
  const footer = "You receive this e-mail because you set up trend alerts on Pinboard Studio.";
  const items = lines
    .map(
      (line) => `<tr><td style="padding:16px 0;border-top:1px solid #dfe5e3">
<p style="line-height:1.5;margin:0 0 12px">${escapeHtml(line.sentence)}</p>
${line.chart ? `<img src="${escapeHtml(line.chart.url)}" width="560" height="240" alt="${escapeHtml(line.chart.alt)}" style="display:block;width:100%;max-width:560px;height:auto;border:1px solid #dfe5e3;border-radius:8px;margin:0 0 12px">` : ""}
<a href="${escapeHtml(line.researchLink)}" style="color:#2f8f77;font-weight:bold">${escapeHtml(line.researchLabel)}</a>
</td></tr>`,
    )
    .join("\n");
  const html = frame(
    subject,
    `${intro.map(paragraph).join("\n")}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">${items}</table>
${button({ label: "Manage my trend alerts", url: links.alertsPage })}
<p style="font-size:12px;color:#6b7580">${escapeHtml(footer)} <a href="${escapeHtml(links.unsubscribePage)}" style="color:#6b7580">Unsubscribe from trend alerts</a></p>`,
    600,
  );
  const text = [
    ...intro,
    ...lines.map((line) => `- ${line.sentence}\n  ${line.researchLabel}: ${line.researchLink}`),
    `Manage my trend alerts: ${links.alertsPage}`,
    `${footer}\nUnsubscribe from trend alerts: ${links.unsubscribePage}`,
  ].join("\n\n");
  return {
    to,
    subject,
    text,
    html,
    headers: listUnsubscribe(links.oneClickUnsubscribe),
  };
}

/** An RSS feed stopped because its owner ran out of pin credits (sent once per pause). */
export function rssFeedPausedEmail(to: string, firstName: string, feedName: string, link: string): OutgoingEmail {
  const subject = `Your RSS feed "${feedName}" is paused`;
  const lines = [
    `Hi ${firstName},`,
    `Your RSS feed "${feedName}" is paused because you ran out of pin credits for this month, so new posts of your blog do not get pins in it for now. The pins already in the feed stay there.`,
    "Once you have credits again (upgrade your plan, or wait for next month's credits), switch the feed back on and its new posts get pins again.",
  ];
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nOpen your RSS feeds: ${link}`,
    html: layout(subject, lines, { label: "Open my RSS feeds", url: link }),
  };
}

/**
 * An owner invites a reviewer to approve a profile's pins (decision 052): the signed link opens /post-approvals.
 * It goes to an address the owner typed (decision 080): the owner's and the profile's names are quoted and inert
 * in the body, and the subject names the owner only when it is a plain name.
 */
export function reviewerInviteEmail(to: string, ownerName: string, profileName: string, link: string): OutgoingEmail {
  const name = plainName(ownerName);
  const subject = name ? `${name} asks you to approve Pinterest pins` : "You are invited to approve Pinterest pins";
  const owner = quoted(ownerName);
  const lines = [
    "Hi,",
    `${owner} schedules pins to the Pinterest profile ${quoted(profileName)} with Pinboard Studio and would like you to approve them before they go out.`,
    "Open the link to see the pins waiting for you, and approve or reject each one with a comment. The link is yours: anyone who has it can review these pins, so please do not share it.",
  ];
  const why = `You received this e-mail because ${owner} entered your address. The link stops working if they remove you as a reviewer.`;
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nReview the pins: ${link}\n\n${why}`,
    html: layout(subject, lines, { label: "Review the pins", url: link }, [escapeHtml(why)]),
  };
}

/** One line of a review batch's e-mail: a pin, what the reviewer decided and their comment. */
export interface ReviewedPinLine {
  title: string;
  decision: "approved" | "rejected";
  comment: string;
  moved: boolean;
  creditsReturned: number;
}

/** A reviewer finished a batch of decisions on an owner's pins: one e-mail per batch, never one per pin. */
export function reviewBatchEmail(
  to: string,
  firstName: string,
  profileName: string,
  reviewerEmail: string,
  pins: ReviewedPinLine[],
  link: string,
): OutgoingEmail {
  const approved = pins.filter((pin) => pin.decision === "approved").length;
  const rejected = pins.length - approved;
  const counts = [approved > 0 ? `${approved} approved` : null, rejected > 0 ? `${rejected} rejected` : null].filter(Boolean).join(", ");
  const subject = `${reviewerEmail} reviewed ${pins.length === 1 ? "a pin" : `${pins.length} pins`} for ${profileName} (${counts})`;
  const describe = (pin: ReviewedPinLine) =>
    `"${pin.title || "Untitled pin"}": ${pin.decision}` +
    (pin.moved ? " (its time had passed while it waited, so it moved to the next free slot)" : "") +
    (pin.creditsReturned > 0 ? ` (${pin.creditsReturned === 1 ? "its credit was" : `its ${pin.creditsReturned} credits were`} returned)` : "") +
    (pin.comment ? `. Comment: ${pin.comment}` : "");
  const lines = [`Hi ${firstName},`, `${reviewerEmail} reviewed pins waiting for approval on ${profileName}:`];
  const items = pins.map((pin) => `<li style="line-height:1.5;margin:0 0 8px">${escapeHtml(describe(pin))}</li>`).join("\n");
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\n${pins.map((pin) => `- ${describe(pin)}`).join("\n")}\n\nApproved pins are in your queue; rejected pins were taken out of it.\n\nOpen post approvals: ${link}`,
    html: frame(
      subject,
      `${lines.map(paragraph).join("\n")}
<ul style="padding-left:20px;margin:0 0 16px">${items}</ul>
${paragraph("Approved pins are in your queue; rejected pins were taken out of it.")}
${button({ label: "Open post approvals", url: link })}`,
    ),
  };
}

/** What a receipt says (decision 082): the payment, and what it buys. Dates are already in the user's time zone. */
export interface ReceiptFacts {
  planName: string;
  /** "monthly", "annual" or "one payment, for good". */
  billing: string;
  creditsPerMonth: number;
  /** "$29.99", or "29.99 EUR" in another currency. */
  amount: string;
  paidOn: string;
  /** The day the payment's period runs to; null for a plan paid for good. */
  paidUntil: string | null;
  /** "a card (Stripe)", "PayPal", "your Shopify store". */
  paidWith: string;
  paymentReference: string;
}

/** A receipt: one per payment, whatever the provider. */
export function receiptEmail(to: string, firstName: string, facts: ReceiptFacts, link: string): OutgoingEmail {
  const subject = `Receipt: ${facts.amount} for the ${facts.planName} plan`;
  const credits = facts.creditsPerMonth.toLocaleString("en-US");
  const lines = [
    `Hi ${firstName},`,
    `Thank you for your payment of ${facts.amount} on ${facts.paidOn} for the ${facts.planName} plan (${facts.billing}).`,
    facts.paidUntil
      ? `It pays for your plan until ${facts.paidUntil}: ${credits} pin credits a month and every feature.`
      : `It pays for your plan for good: ${credits} pin credits every month and every feature.`,
    `Paid with ${facts.paidWith}. Payment reference: ${facts.paymentReference}.`,
  ];
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nManage your subscription: ${link}`,
    html: layout(subject, lines, { label: "Manage subscription", url: link }, ["Keep this e-mail as your receipt. Refunds are not offered."]),
  };
}

/** What a cancellation confirmation says (decision 082). Dates are already in the user's time zone. */
export interface CancellationFacts {
  planName: string;
  /** The day the plan stops; null when it has stopped already. */
  endsOn: string | null;
  freeCreditsPerMonth: number;
  /** Whether Manage subscription can undo the cancellation until then (Stripe can; PayPal and Shopify cannot). */
  canReactivate: boolean;
}

/** A confirmation after every cancellation; its first words are the spec's message. */
export function cancellationEmail(to: string, firstName: string, facts: CancellationFacts, link: string): OutgoingEmail {
  const subject = `Your ${facts.planName} subscription has been canceled`;
  const free = `Free with ${facts.freeCreditsPerMonth} credits a month`;
  const lines = [
    `Hi ${firstName},`,
    "Your subscription has been canceled.",
    facts.endsOn
      ? `You keep the ${facts.planName} plan until ${facts.endsOn}; then you move to ${free}. You will not be charged again.`
      : `Your ${facts.planName} plan has ended: you are on ${free}.`,
    facts.endsOn && facts.canReactivate
      ? `Changed your mind? Reactivate it under Manage subscription before ${facts.endsOn} and it carries on as before.`
      : "Changed your mind? Pick a plan again any time under Manage subscription.",
  ];
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\nManage your subscription: ${link}`,
    html: layout(subject, lines, { label: "Manage subscription", url: link }),
  };
}

/** One profile's week in the weekly insights e-mail. */
export interface WeeklySummaryLine {
  username: string;
  pins: number;
  totals: { impressions: number; saves: number; outboundClicks: number; engagementRate: number };
}

/**
 * The weekly insights e-mail (decision 093), sent only to users who asked for it: each profile's last 7 days. Its
 * unsubscribe link turns it off on the spec's /unsubscribe page; its List-Unsubscribe headers in one click.
 */
export function weeklySummaryEmail(
  to: string,
  firstName: string,
  lines: WeeklySummaryLine[],
  links: { insightsPage: string; unsubscribePage: string; oneClickUnsubscribe: string },
): OutgoingEmail {
  const subject = "Your week on Pinterest";
  const number = (n: number) => n.toLocaleString("en-US");
  const sentence = (line: WeeklySummaryLine) =>
    `${line.username}: ${number(line.totals.impressions)} impressions, ${number(line.totals.saves)} saves and ${number(line.totals.outboundClicks)} clicks to your site from ${number(line.pins)} pins (engagement ${(line.totals.engagementRate * 100).toFixed(1)}%).`;
  const intro = [`Hi ${firstName},`, "Here is how your pins did on Pinterest over the last 7 days:"];
  const footer = "You receive this e-mail because you asked for a weekly summary of your pin analytics on Pinboard Studio.";
  const html = frame(
    subject,
    `${intro.map(paragraph).join("\n")}
<ul style="line-height:1.5;margin:0 0 16px;padding-left:20px">${lines.map((line) => `<li>${escapeHtml(sentence(line))}</li>`).join("")}</ul>
${button({ label: "See your analytics", url: links.insightsPage })}
<p style="font-size:12px;color:#6b7580">${escapeHtml(footer)} <a href="${escapeHtml(links.unsubscribePage)}" style="color:#6b7580">Unsubscribe from the weekly summary</a></p>`,
  );
  const text = [
    ...intro,
    ...lines.map((line) => `- ${sentence(line)}`),
    `See your analytics: ${links.insightsPage}`,
    `${footer}\nUnsubscribe from the weekly summary: ${links.unsubscribePage}`,
  ].join("\n\n");
  return { to, subject, text, html, headers: listUnsubscribe(links.oneClickUnsubscribe) };
}
