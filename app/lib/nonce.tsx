import { createContext, useContext } from "react";

/**
 * The Content-Security-Policy nonce of the page being rendered on the server.
 * In the browser it is empty: browsers hide nonces from the page, and scripts
 * added after hydration are trusted through 'strict-dynamic'.
 */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
