import type { AdminRun } from "./admin-actions.server";
import { answerComplaint, closeComplaint } from "~/services/back-office/complaints.server";
import { answerComplaintSchema } from "~/shared/complaints";
import { uuidParam } from "~/web/http.server";

/** The back office's complaint actions (docs/decisions/081-complaints.md): the API's JSON and the form's toast, from one service call. */
export const answerComplaintAction: AdminRun = async (session, input, id) => {
  const { answer } = await input(answerComplaintSchema);
  const complaint = await answerComplaint(session.user.id, uuidParam(id), answer);
  return {
    json: complaint,
    toast: { type: "success", title: "Complaint answered", description: "The player reads the answer on their complaints page and by email." },
  };
};

export const closeComplaintAction: AdminRun = async (session, _input, id) => {
  const complaint = await closeComplaint(session.user.id, uuidParam(id));
  return { json: complaint, toast: { type: "success", title: "Complaint closed" } };
};
