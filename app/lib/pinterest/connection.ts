import type { ActivateResponse, StateCheckResponse } from "../../../contracts/pinterest/pinterest-connection.ts";
import type { PinterestBoard, PinterestBoardSection } from "../../../contracts/pinterest/pinterest.ts";
import { ApiError, apiJson } from "../api-client.ts";
import { browserHandleStore, saveHandles, usableAccessToken, usableRefreshToken, type HandleStore, type IssuedHandles } from "./handles.ts";

/**
 * The browser's side of the Pinterest connection (spec sections 4, 7 and 8).
 * Pin-board calls carry the profile's access handle; on 401 the handle is
 * refreshed and the call retried once. When the refresh itself is refused
 * with 401 the profile needs the user to reconnect it: `ReauthorizationNeeded`
 * tells the page to show the prompt 'We were unable to connect to your
 * Pinterest profile ... Would you like to reauthorize it now?'. Activation is
 * the exception: its 401 is shown as 'User needs to reauthenticate'.
 */

export class ReauthorizationNeeded extends Error {
  readonly username: string;
  constructor(username: string, cause?: unknown) {
    super(`We were unable to connect to your Pinterest profile ${username}. Would you like to reauthorize it now?`, { cause });
    this.name = "ReauthorizationNeeded";
    this.username = username;
  }
}

/** The prompt's text for a profile (spec section 8). */
export function reauthorizePrompt(username: string): string {
  return new ReauthorizationNeeded(username).message;
}

export interface ConnectionDeps {
  /** POST a JSON body to our API; throws ApiError with the server's status and message. */
  post<T>(path: string, body: unknown): Promise<T>;
  store: HandleStore | null;
  now(): number;
}

export const browserConnectionDeps: ConnectionDeps = {
  post: (path, body) => apiJson(path, { json: body }),
  get store() {
    return browserHandleStore();
  },
  now: () => Date.now(),
};

const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401;

export class PinterestConnection {
  private readonly deps: ConnectionDeps;
  private readonly userId: string;
  private readonly renewing = new Map<string, Promise<string>>();

  constructor(userId: string, deps: ConnectionDeps = browserConnectionDeps) {
    this.userId = userId;
    this.deps = deps;
  }

  private owner(username: string) {
    return { userId: this.userId, username };
  }

  private keep(username: string, issued: IssuedHandles): string {
    saveHandles(this.deps.store, this.owner(username), issued, this.deps.now());
    return issued.authToken;
  }

  /**
   * Makes the profile the active one and loads its scheduling settings and
   * handles. 401 'User needs to reauthenticate' and 423 'Pinterest profile is
   * blocked' reach the caller as ApiError.
   */
  async activate(username: string): Promise<ActivateResponse> {
    const answer = await this.deps.post<ActivateResponse>("/api/pinterestAPI/activatePinterestProfile", { username });
    this.keep(username, answer);
    return answer;
  }

  /** A new access handle: from the stored refresh handle, else by activating the profile again. */
  private renew(username: string): Promise<string> {
    let running = this.renewing.get(username);
    if (!running) {
      running = (async () => {
        const refreshToken = usableRefreshToken(this.deps.store, this.owner(username), this.deps.now());
        try {
          if (refreshToken) {
            return this.keep(username, await this.deps.post<IssuedHandles>("/api/pinterestAPI/refreshPinterestAccessToken", { refresh_token: refreshToken }));
          }
          return this.keep(username, await this.activate(username));
        } catch (error) {
          if (isUnauthorized(error)) throw new ReauthorizationNeeded(username, error);
          throw error;
        }
      })().finally(() => this.renewing.delete(username));
      this.renewing.set(username, running);
    }
    return running;
  }

  /** The profile's access handle (a stored one while it lives). */
  async accessToken(username: string): Promise<string> {
    return usableAccessToken(this.deps.store, this.owner(username), this.deps.now()) ?? this.renew(username);
  }

  /** Runs a pin-board call with the profile's handle: on 401, refresh once and retry; a second 401 needs the user. */
  async withAccessToken<T>(username: string, call: (accessToken: string) => Promise<T>): Promise<T> {
    const first = await this.accessToken(username);
    try {
      return await call(first);
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
    }
    const second = await this.renew(username);
    try {
      return await call(second);
    } catch (error) {
      if (isUnauthorized(error)) throw new ReauthorizationNeeded(username, error);
      throw error;
    }
  }

  async boards(username: string): Promise<PinterestBoard[]> {
    return this.withAccessToken(
      username,
      async (access_token) => (await this.deps.post<{ items: PinterestBoard[] }>("/api/pinterestAPI/getAllUserPinterestBoards", { access_token })).items,
    );
  }

  async sections(username: string, boardId: string): Promise<PinterestBoardSection[]> {
    return this.withAccessToken(
      username,
      async (access_token) => (await this.deps.post<{ items: PinterestBoardSection[] }>("/api/pinterestAPI/getBoardSections", { access_token, boardId })).items,
    );
  }

  async createBoard(username: string, board: { boardName: string; boardDescription?: string; boardCategory?: string }): Promise<PinterestBoard> {
    return this.withAccessToken(
      username,
      async (access_token) =>
        (
          await this.deps.post<{ board: PinterestBoard }>("/api/pinterestAPI/createPinterestBoard", {
            access_token,
            boardCategory: "",
            boardDescription: "",
            ...board,
          })
        ).board,
    );
  }
}

// ------------------------------------------------------------------ connecting a profile

const STATE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** A random OAuth state of `length` URL-safe characters (the server accepts 16-128). */
export function newStateCheck(length = 43, randomBytes: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))): string {
  // 64 symbols: each byte's low 6 bits pick one without bias.
  return Array.from(randomBytes(length), (byte) => STATE_ALPHABET[byte & 63]).join("");
}

/**
 * Records a state check and answers Pinterest's authorization page, which
 * comes back to `redirectUrl` (a path of this site) with `pinterestConnected`
 * or `pinterestError`.
 */
export async function pinterestAuthorizeUrl(redirectUrl: string, post: ConnectionDeps["post"] = browserConnectionDeps.post): Promise<string> {
  const answer = await post<StateCheckResponse>("/api/pinterestAPI/recordPinterestStateCheck", { stateCheck: newStateCheck(), redirectUrl });
  return answer.authorizeUrl;
}

/** Leaves for Pinterest's consent page to connect (or reconnect) a profile. */
export async function connectPinterest(redirectUrl: string): Promise<void> {
  window.location.assign(await pinterestAuthorizeUrl(redirectUrl));
}

/** What the OAuth callback put in the page's query: a connected username or an error. */
export function oauthOutcome(search: string): { connected: string | null; error: string | null } {
  const params = new URLSearchParams(search);
  return { connected: params.get("pinterestConnected"), error: params.get("pinterestError") };
}

/** The query without the OAuth outcome, for replacing the address after reading it. */
export function withoutOauthOutcome(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("pinterestConnected");
  params.delete("pinterestError");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}
