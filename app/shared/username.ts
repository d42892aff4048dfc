/**
 * The spec's username rules (section 5), in its order and with its exact messages, then
 * the names the site keeps for itself. The same function runs in the browser
 * (inline validation) and on the server.
 */
export const USERNAME_MAX = 20;
export const USERNAME_HINT = "3-20 characters, letters, numbers, and underscores only";

export const USERNAME_REQUIRED = "Username Required: Please enter a username to continue.";

export type UsernameProblem = { title: string; description: string };

/** An entry before a username is chosen: the API's message, and the username page's reason. */
export const USERNAME_FIRST = "Choose a username before you play: other players see it when you win.";

export const USERNAME_TAKEN = "That username is already taken. Try another one!";
export const USERNAME_RESERVED = "That username is reserved. Try another one!";

/**
 * The key that makes usernames unique by how they look: two names with one key
 * could be taken for each other. Unicode's confusable skeleton (UTS #39, confusables.txt)
 * maps, among the characters a username may hold, "I" and "1" to "l", "0" to "O" and
 * "m" to "rn"; names are also unique whatever their case, so the key is that skeleton closed
 * under case: lower-cased, then "i" and "1" to "l", "0" to "o", "m" to "rn". The migration
 * 20261125090000_usernames_by_look computes the same in SQL for the names that existed.
 */
export function usernameKey(username: string): string {
  return username.toLowerCase().replace(/[i1]/g, "l").replace(/0/g, "o").replace(/m/g, "rn");
}

/** Names only the site may use: a player who takes one could pass for staff. */
const RESERVED = [
  "admin",
  "administrator",
  "root",
  "system",
  "support",
  "help",
  "helpdesk",
  "staff",
  "moderator",
  "mod",
  "official",
  "security",
  "billing",
  "payments",
  "cashier",
  "owner",
  "operator",
  "rafflerush",
  "raffle_rush",
  "null",
  "undefined",
  "anonymous",
];
/** Words a name may not begin or end with, nor hold between underscores ("Real_Admin", "SupportTeam"). */
const RESERVED_WORDS = ["admin", "support", "moderator", "official", "rafflerush", "staff"];
const reservedKeys = new Set(RESERVED.map(usernameKey));
const reservedWordKeys = RESERVED_WORDS.map(usernameKey);

/** Whether the name is, or looks like, one of the site's own (compared by key, so "AdmIn" and "Adrnin" too). */
export function isReservedUsername(username: string): boolean {
  const key = usernameKey(username);
  if (reservedKeys.has(key)) return true;
  const parts = key.split("_");
  return reservedWordKeys.some((word) => key.startsWith(word) || key.endsWith(word) || parts.includes(word));
}

export function validateUsername(raw: string): { ok: true; username: string } | { ok: false; problem: UsernameProblem } {
  const username = raw.trim();
  if (username.length === 0) {
    return { ok: false, problem: { title: "Username Required", description: "Please enter a username to continue." } };
  }
  if (username.length < 3) {
    return { ok: false, problem: { title: "Username Too Short", description: "Username must be at least 3 characters long." } };
  }
  if (username.length > USERNAME_MAX) {
    return { ok: false, problem: { title: "Username Too Long", description: "Username must be less than 20 characters." } };
  }
  if (!/^[A-Za-z0-9_]+$/.test(username)) {
    return {
      ok: false,
      problem: { title: "Invalid Username", description: "Username can only contain letters, numbers, and underscores." },
    };
  }
  if (isReservedUsername(username)) {
    return { ok: false, problem: { title: "Username Reserved", description: USERNAME_RESERVED } };
  }
  return { ok: true, username };
}
