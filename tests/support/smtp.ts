import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll } from "vitest";
import { forgetEnv } from "~/infra/env.server";
import { forgetTransport } from "~/infra/mail/transport.server";

/**
 * A real SMTP server in the test process (smtp-server), with SMTP_URL pointing at it for
 * the file's tests: what the app sends arrives here, parsed (mailparser). `refuseNext`
 * makes it answer the next messages with a temporary failure (451), as a busy relay would.
 */
export type TestSmtp = {
  messages: ParsedMail[];
  refuseNext: (count: number) => void;
  /** Messages to this address (the parsed To). */
  to: (address: string) => ParsedMail[];
};

/** The configuration and the mail transport are made again from SMTP_URL as it is now. */
const resetMailCaches = () => {
  forgetEnv();
  forgetTransport();
};

export function setUpSmtp(): TestSmtp {
  const messages: ParsedMail[] = [];
  let refusals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (refusals > 0) {
            refusals -= 1;
            const error = Object.assign(new Error("Try again later"), { responseCode: 451 });
            return callback(error);
          }
          messages.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  let saved: string | undefined;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    saved = process.env.SMTP_URL;
    process.env.SMTP_URL = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
    resetMailCaches();
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.SMTP_URL;
    else process.env.SMTP_URL = saved;
    resetMailCaches();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return {
    messages,
    refuseNext: (count) => (refusals = count),
    to: (address) => messages.filter((m) => [m.to].flat().some((a) => a?.value.some((v) => v.address === address.toLowerCase()))),
  };
}
