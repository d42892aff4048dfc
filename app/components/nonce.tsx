import { createContext, useContext } from "react";

/** The Content Security Policy nonce of this response, set by entry.server. */
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
