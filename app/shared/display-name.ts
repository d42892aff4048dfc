/** The spec's welcome name: username, else first name, else "Player". */
export function displayName(user: { username: string | null; firstName: string | null } | null): string {
  return user?.username ?? user?.firstName ?? "Player";
}
