import type { LoaderFunctionArgs } from "@remix-run/node";
import { complaintQueue } from "~/services/back-office/complaints.server";
import { requireAdmin } from "~/web/auth.server";

/** The complaints queue: overdue first, each with its age and due date (the back office's tab is /admin/complaints). */
export async function loader({ request }: LoaderFunctionArgs) {
  const session = await requireAdmin(request);
  return Response.json(await complaintQueue(session.user.id));
}
