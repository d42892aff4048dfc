import type { MetaFunction } from "@remix-run/node";
import { LegalPage } from "~/components/legal-page";
import { POLICY } from "~/shared/policy";
import { useRootData } from "~/components/use-root-data";
import { PageError } from "~/components/route-error";

export default function Privacy() {
  const { supportEmail } = useRootData();
  return (
    <LegalPage
      title="Privacy Policy"
      updated={POLICY.lastUpdated}
      sections={[
        {
          heading: "Information we collect",
          body: (
            <p>
              Your email, date of birth, username, sign-in records (time, address, browser), your coin movements, and for withdrawals the payout details you
              give us (stored encrypted; card numbers are kept only as a token with the last four digits).
            </p>
          ),
        },
        {
          heading: "How we use it",
          body: <p>To run your account and the raffles, pay out winnings, check your age and identity, prevent fraud, and meet our legal duties.</p>,
        },
        {
          heading: "Who we share it with",
          body: (
            <p>
              Our payment processors (to take and send payments), identity-check providers, and authorities where the law requires. We do not sell your data.
            </p>
          ),
        },
        {
          heading: "Security",
          body: (
            <p>Passwords are stored only as slow, salted hashes; sessions can be revoked; payout details are encrypted; card data never touches our servers.</p>
          ),
        },
        {
          heading: "Your rights",
          body: (
            <p>
              You may ask to access, correct, delete or take a copy of your data (portability), and object to or restrict how we use it. Write to us and we will
              answer within 30 days.
            </p>
          ),
        },
        {
          heading: "Cookies",
          body: (
            <p>
              We use a session cookie to keep you signed in, a cookie for your theme, and short-lived cookies for messages after a form. No advertising cookies.
            </p>
          ),
        },
        {
          heading: "How long we keep it",
          body: (
            <p>
              While your account is open, and as long as the law requires for financial records. Other data of a closed account is deleted within{" "}
              {POLICY.closedAccountDeletionDays} days.
            </p>
          ),
        },
        { heading: "International users", body: <p>Your data may be processed outside your country, with safeguards the law requires.</p> },
        {
          heading: "Children",
          body: <p>The site is for adults {POLICY.minimumAge} and over. We close any account we learn belongs to a minor and delete its data.</p>,
        },
        { heading: "Links to other sites", body: <p>Other sites linked from ours have their own policies; we are not responsible for them.</p> },
        { heading: "Changes to this policy", body: <p>We will post changes here and tell you about material ones.</p> },
        {
          heading: "Contact",
          body: (
            <p>
              Write to{" "}
              <a className="underline" href={`mailto:${supportEmail}`}>
                {supportEmail}
              </a>
              .
            </p>
          ),
        },
      ]}
    />
  );
}

export const meta: MetaFunction = () => [{ title: "Privacy Policy — Raffle Rush" }];

export function ErrorBoundary() {
  return <PageError title="The privacy policy could not be shown" />;
}
