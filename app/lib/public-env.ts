import type { SocialLink } from "../../workers/domain/social-links.ts";

/** The configuration the browser may know (never a secret); the root loader sends it. */
export interface PublicEnv {
  appVersion: string;
  appEnv: string;
  googleClientId: string;
  googleAuthUrl: string;
  /** The contact page's details (wrangler.toml CONTACT_EMAIL, CONTACT_PHONE, SOCIAL_LINKS). */
  contact: { email: string; phone: string; socialLinks: SocialLink[] };
}
