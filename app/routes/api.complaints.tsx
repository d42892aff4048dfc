import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { fileComplaint, listPlayerComplaints } from "~/services/back-office/complaints.server";
import { fileComplaintSchema } from "~/shared/complaints";
import { requireUser } from "~/web/auth.server";
import { apiResponse, readJson } from "~/web/http.server";
import { idempotent } from "~/web/idempotency.server";

/** The player's complaints, newest first (the page is /complaints). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return Response.json(await listPlayerComplaints(user.id));
}

/**
 * Files a complaint {subject, reference?, message, requestId?}: the same requestId (or
 * Idempotency-Key) again files nothing more and answers with the first complaint.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return idempotent(request, user.id, () =>
    apiResponse(async () => Response.json(await fileComplaint(user.id, await readJson(request, fileComplaintSchema)), { status: 201 })),
  );
}
