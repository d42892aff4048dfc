import { db } from "./db.server";

/** The fields any part of the app may read; never the password hash. */
export const publicUserSelect = {
  id: true,
  email: true,
  username: true,
  firstName: true,
  totalWinnings: true,
  vipTier: true,
  vipExpiry: true,
  isAdmin: true,
  createdAt: true,
} as const;

type NewUser = {
  email: string;
  passwordHash: string;
  dateOfBirth: Date;
  username?: string;
  isAdmin?: boolean;
};

/** Creates the user unless one with this email exists; returns whether it was created. */
export async function createUserIfAbsent(user: NewUser): Promise<boolean> {
  const email = user.email.toLowerCase();
  const { count } = await db().user.createMany({
    data: [{ ...user, email, usernameKey: user.username?.toLowerCase() }],
    skipDuplicates: true,
  });
  return count === 1;
}

export function getUserByEmail(email: string) {
  return db().user.findUnique({ where: { email: email.toLowerCase() }, select: publicUserSelect });
}

