import { waitInWords } from "../../domain/waiting.ts";
import type { Env } from "../../env.ts";
import { sendEmail } from "../../integrations/email.ts";
import type { OutgoingEmail } from "../../integrations/email-message.ts";
import { ServiceError } from "../core/errors.ts";
import type { User } from "./accounts.ts";
import { SUPPRESSED_TYPED_ADDRESS, suppressionOf } from "./email-suppressions.ts";
import { mailboxKey } from "./mailboxes.ts";
import { consumeRateLimits, RATE_LIMITS, RateLimited, waitsBeforeTrying, type RateLimitRule } from "./rate-limit.ts";

/**
 * The one way out for e-mail to an address a user typed (docs/decisions/080): gift invites, reviewer
 * invites, the newsletter's Success Plan, and anything later that writes to someone who did not ask us to. Such mail must not make us
 * a relay, so every one counts against a daily limit per sender and one per recipient mailbox (aliases
 * of one inbox share it), across all kinds. Mail about an account goes to its own address only once the
 * address is verified (sendToAccountAddress): until then it is just an address somebody typed.
 */

/** A limit of one kind of such mail per sender, counted with the shared ones, with its own words. */
export interface KindLimit {
  rule: RateLimitRule;
  refusal: (wait: string) => string;
}

export const SENDER_LIMIT_REFUSAL = (wait: string) => `You have asked us to e-mail a lot of people today. Please try again in ${wait}.`;
export const RECIPIENT_LIMIT_REFUSAL = (wait: string) =>
  `This address has already had several e-mails from Pinboard Studio today. Please try again in ${wait}.`;

/** Who has us send: a signed-in user, or a visitor known only by their client address (may be unknown). */
export type TypedMailSender = Pick<User, "id"> | { ip: string | null };

const senderKey = (sender: TypedMailSender) => ("id" in sender ? sender.id : sender.ip ? `ip:${sender.ip}` : null);

/**
 * Sends `email` for `sender` when neither the sender nor the recipient's mailbox (nor the kind's own
 * limit) has reached its limit for the day; otherwise throws RateLimited (429) saying which and for how
 * long, having sent and counted nothing; throws AddressSuppressed (422) when the address bounced or complained.
 * A provider failure after counting is thrown as it is.
 */
export async function sendToTypedAddress(env: Env, sender: TypedMailSender, email: OutgoingEmail, kind?: KindLimit, now = Date.now()): Promise<void> {
  // An address that bounced or complained (decision 097) is refused before anything is counted.
  if (await suppressionOf(env.DB, email.to, now)) throw new AddressSuppressed();
  const from = senderKey(sender);
  const limits = [
    ...(kind ? [{ rule: kind.rule, key: from, refusal: kind.refusal }] : []),
    { rule: RATE_LIMITS.typedMailPerSender, key: from, refusal: SENDER_LIMIT_REFUSAL },
    { rule: RATE_LIMITS.typedMailPerRecipient, key: await mailboxKey(env, email.to), refusal: RECIPIENT_LIMIT_REFUSAL },
  ];
  // A sender with no address known (never in production, where Cloudflare gives one) is limited by the recipient's count alone.
  const checks = limits.map(({ rule, key }): [RateLimitRule, string | null] => [rule, key]);
  const refuseWhenReached = async () => {
    const waits = await waitsBeforeTrying(env.DB, checks, now);
    const reached = waits.findIndex((wait) => wait > 0);
    if (reached >= 0) throw new RateLimited(waits[reached], () => limits[reached].refusal(waitInWords(waits[reached])));
  };
  // Looked at before counting, so a refused request does not use up the recipient's limit for others.
  await refuseWhenReached();
  try {
    await consumeRateLimits(env.DB, checks, now);
  } catch (error) {
    // Another request took the last place meanwhile: refused in the same words.
    if (error instanceof RateLimited) await refuseWhenReached();
    throw error;
  }
  if (!(await sendEmail(env, email)).sent) throw new AddressSuppressed();
}

/**
 * sendToTypedAddress's refusal of an address that bounced or complained (decision 097): 422 on the form's
 * `email` field, in words that do not say which.
 */
export class AddressSuppressed extends ServiceError {
  constructor() {
    super(422, SUPPRESSED_TYPED_ADDRESS, "email");
  }
}

/**
 * Sends mail about an account to the account's own address, only when that address is verified and has not
 * bounced or complained (decision 097); answers whether it was sent. The verification and password-reset
 * e-mails are the exceptions (they prove the address, and name the user only by a plain name): they do not
 * come through here.
 */
export async function sendToAccountAddress(env: Env, account: Pick<User, "email" | "isEmailVerified">, email: OutgoingEmail): Promise<boolean> {
  if (email.to !== account.email) throw new Error("sendToAccountAddress sends only to the account's own address");
  if (!account.isEmailVerified) return false;
  return (await sendEmail(env, email)).sent;
}
