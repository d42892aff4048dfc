import { z } from "zod";
import { USERNAME_REQUIRED } from "./username";

// Apart from username.ts, whose rules and messages every page's shell uses: those pages load no zod.
/**
 * The username dialog's form: one field, up to 200 characters read; the rules of
 * `validateUsername` then run on it in the browser and again in `createUsername`.
 */
export const usernameFormSchema = z.object({
  // Trimmed, then required: spaces alone are no username (the rules then run on the trimmed name).
  username: z.string({ message: USERNAME_REQUIRED }).max(200).trim().min(1, USERNAME_REQUIRED),
});
