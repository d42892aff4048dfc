import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { createUsername } from "~/services/accounts.server";
import { requireUser } from "~/services/auth.server";
import { readJson } from "~/infra/http.server";
import { respond } from "~/infra/respond.server";

const schema = z.object({ username: z.string({ message: "Please enter a username to continue." }).max(200) });

/** POST {username}: the spec's four rules, then uniqueness (case-insensitive). */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return respond(
    request,
    async () => {
      const { username } = await readJson(request, schema);
      const created = await createUsername(user.id, username);
      return {
        json: { success: true, username: created },
        toast: { type: "success", title: "Username Created!", description: `Welcome to Raffle Rush, ${created}!` },
      };
    },
    { failureTitle: "Username Error" },
  );
}

export function loader() {
  throw new Response("Not Found", { status: 404 });
}
