/** What the browser may know about recovery links; the rules themselves are in email-tokens.server.ts. */
export const RESET_TOKEN_MINUTES = 30;
export const VERIFY_TOKEN_HOURS = 24;
export const EXPIRED_LINK = "This link has expired or was already used. Ask for a new one.";
