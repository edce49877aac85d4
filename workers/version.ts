import packageJson from "../package.json";

/** The app version: package.json's, sent as `x-app-version` on every response. */
export const APP_VERSION: string = packageJson.version;
