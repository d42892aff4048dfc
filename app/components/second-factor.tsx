import { Form } from "@remix-run/react";
import { buttonClass, inputClass } from "./form-fields";

/** The QR code (an SVG drawn on the server), the secret for typing by hand, and the first code's form (ADR 036). */
export function TotpEnrolment({ enrolment, busy }: { enrolment: { secret: string; qrCode: string }; busy: boolean }) {
  return (
    <Form method="post" reloadDocument className="flex flex-col gap-4 text-left">
      <p>Scan this QR code with your authenticator app, then type the 6-digit code it shows.</p>
      <img src={enrolment.qrCode} alt="QR code for your authenticator app" width={200} height={200} className="self-center bg-white p-2" />
      <p className="text-sm">
        Or type this key into the app: <code data-testid="totp-secret" className="break-all font-mono">{enrolment.secret}</code>
      </p>
      <input type="hidden" name="intent" value="confirm" />
      <label htmlFor="confirm-code" className="text-sm font-semibold">Code from the app</label>
      <input id="confirm-code" name="code" inputMode="numeric" autoComplete="one-time-code" required className={inputClass} />
      <button type="submit" className={buttonClass} disabled={busy}>{busy ? "Checking..." : "Turn on two-factor authentication"}</button>
    </Form>
  );
}

/** The ten recovery codes, shown once. */
export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <section aria-labelledby="recovery-title" className="flex flex-col gap-2">
      <h2 id="recovery-title" className="text-xl font-bold">Your recovery codes</h2>
      <p>Each works once, in place of a code from the app. Keep them somewhere safe: they are not shown again.</p>
      <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono">
        {codes.map((code) => <li key={code}>{code}</li>)}
      </ul>
    </section>
  );
}
