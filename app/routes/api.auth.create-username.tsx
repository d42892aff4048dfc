import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { createUsername } from "~/services/accounts/sign-up.server";
import { requireUser } from "~/web/auth.server";
import { apiResponse, readJson } from "~/web/http.server";

const schema = z.object({ username: z.string({ message: "Please enter a username to continue." }).max(200) });

/** POST {username}: the spec's four rules, then uniqueness (case-insensitive). JSON only; the dialog posts to /account/username. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return apiResponse(async () => {
    const { username } = await readJson(request, schema);
    return Response.json({ success: true, username: await createUsername(user.id, username) });
  });
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
