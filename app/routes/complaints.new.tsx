import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { buttonClass, Field, inputClass } from "~/components/form-fields";
import { PlayerShell } from "~/components/player-shell";
import { PageError } from "~/components/route-error";
import { useSchemaForm } from "~/components/schema-form";
import { fileComplaint, newComplaintToken } from "~/services/back-office/complaints.server";
import { COMPLAINT_MESSAGE_MAX, COMPLAINT_SUBJECTS, fileComplaintSchema, SUBJECT_KEYS } from "~/shared/complaints";
import { longUtcDate } from "~/shared/dates";
import { DomainError } from "~/shared/domain-error";
import { requireUser } from "~/web/auth.server";
import { queryParams, readForm } from "~/web/http.server";
import { redirectWithToast } from "~/web/toast.server";

/**
 * Filing a complaint (docs/decisions/081-complaints.md), from Settings or from a history row,
 * which fills in the subject and the raffle or withdrawal (`?subject=draw&reference=<id>`; a
 * value that does not fit is left out). A plain form: the token it carries files one
 * complaint however often it is posted. API clients use POST /api/complaints.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const params = queryParams(request);
  const subject = SUBJECT_KEYS.find((s) => s === params.get("subject")) ?? "";
  const reference = fileComplaintSchema.shape.reference.safeParse(params.get("reference") ?? undefined);
  return { token: newComplaintToken(), subject, reference: (reference.success && reference.data) || "" };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const submission = parseWithZod(await readForm(request), { schema: fileComplaintSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  if (!submission.value.requestId)
    return Response.json(submission.reply({ formErrors: ["The form's token is missing: open the form again"] }), { status: 400 });
  try {
    const complaint = await fileComplaint(user.id, submission.value);
    return redirectWithToast("/complaints", {
      type: "success",
      title: "Complaint received",
      description: `We answer by ${longUtcDate(complaint.dueAt)}, here and by email.`,
    });
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== "invalid_input") throw error;
    return Response.json(submission.reply({ fieldErrors: { reference: [error.message] } }), { status: 400 });
  }
}

export default function NewComplaint() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const [form, fields] = useSchemaForm("complaint", fileComplaintSchema, lastResult);
  return (
    <PlayerShell>
      <main className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-8">
        <h1 className="text-3xl font-black">File a complaint</h1>
        <p>
          Tell us what went wrong with a draw, a payout or a decision about your account. We answer every complaint in writing, on{" "}
          <Link to="/complaints" className="underline">
            My complaints
          </Link>{" "}
          and by email.
        </p>
        {form.errors?.length ? (
          <p role="alert" className="font-semibold text-danger" data-testid="complaint-error">
            {form.errors.join(" ")}
          </p>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
          <input type="hidden" name="requestId" value={data.token} />
          <Field label="What is it about?" id={fields.subject.id} errors={fields.subject.errors}>
            <select {...getSelectProps(fields.subject)} defaultValue={data.subject} className={inputClass}>
              <option value="" disabled>
                Choose one
              </option>
              {SUBJECT_KEYS.map((s) => (
                <option key={s} value={s}>
                  {COMPLAINT_SUBJECTS[s]}
                </option>
              ))}
            </select>
          </Field>
          <Field
            label="Raffle or withdrawal ID (optional)"
            id={fields.reference.id}
            errors={fields.reference.errors}
            hint="For a draw or a payout: the link from your history fills it in."
          >
            <input
              {...getInputProps(fields.reference, { type: "text" })}
              defaultValue={data.reference}
              autoComplete="off"
              className={`${inputClass} font-mono`}
            />
          </Field>
          <Field label="What went wrong?" id={fields.message.id} errors={fields.message.errors} hint={`10 to ${COMPLAINT_MESSAGE_MAX} characters.`}>
            <textarea {...getTextareaProps(fields.message)} rows={6} className={inputClass} />
          </Field>
          <button type="submit" disabled={busy} className={`${buttonClass} min-h-11`}>
            {busy ? "Sending…" : "Send complaint"}
          </button>
        </Form>
      </main>
    </PlayerShell>
  );
}

export const meta: MetaFunction = () => [{ title: "File a complaint — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The complaint form could not be shown" back={{ to: "/complaints", label: "Back to my complaints" }} />;
}
