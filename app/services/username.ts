/**
 * The spec's username rules (section 5), in its order and with its exact messages.
 * The same function runs in the browser (inline validation) and on the server.
 */
export const USERNAME_MAX = 20;
export const USERNAME_HINT = "3-20 characters, letters, numbers, and underscores only";

export type UsernameProblem = { title: string; description: string };

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
  return { ok: true, username };
}

export const USERNAME_TAKEN = "That username is already taken. Try another one!";
