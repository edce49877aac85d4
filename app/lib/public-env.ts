/** The configuration the browser may know (never a secret); the root loader sends it. */
export interface PublicEnv {
  appVersion: string;
  appEnv: string;
  googleClientId: string;
  googleAuthUrl: string;
}
