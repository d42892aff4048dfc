import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, loggableUrl, maskLongNumbers, readableLines } from "./logger.server";

describe("loggableUrl", () => {
  it("keeps ordinary paths and parameters readable", () => {
    expect(loggableUrl("/checkout?package=package_2")).toBe("/checkout?package=package_2");
    expect(loggableUrl("/fair/6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b")).toBe("/fair/6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b");
    expect(loggableUrl("/history?type=entries&from=2026-11-01&to=2026-11-30")).toBe("/history?type=entries&from=2026-11-01&to=2026-11-30");
  });

  it("hides card-like numbers anywhere, and the values of card and account parameters", () => {
    expect(loggableUrl("/withdraw?card=4000056655665556&cvv=8642")).toBe("/withdraw?card=[redacted]&cvv=[redacted]");
    expect(loggableUrl("/x?note=4242+4242+4242+4242&n=4242%204242%204242%204242")).toBe("/x?note=[number]&n=[number]");
    expect(loggableUrl("/pay/4000-0566-5566-5556/now")).toBe("/pay/[number]/now");
    expect(loggableUrl("/w?debit_card.cardNumber=1&routingNumber=021000021&x%43vc=1")).toBe(
      "/w?debit_card.cardNumber=[redacted]&routingNumber=[redacted]&x%43vc=[redacted]",
    );
  });

  it("hides them whatever separates or encodes the digits (issue 19)", () => {
    expect(loggableUrl("/nope/4242_4242_4242_4242")).toBe("/nope/[number]");
    expect(loggableUrl("/?q=4242.4242.4242.4242")).toBe("/?q=[number]");
    expect(loggableUrl("/?q=%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32")).toBe("/?q=[number]");
    // Split over parameters without names: still one run of digits.
    expect(loggableUrl("/?q=4242&=4242&=4242&=4242")).toBe("/?q=[number]");
  });
});

describe("maskLongNumbers", () => {
  it.each([
    "4242424242424242",
    "5555555555554444",
    "378282246310005",
    "4242 4242 4242 4242",
    "4242_4242_4242_4242",
    "4242.4242.4242.4242",
    "4242/4242/4242/4242",
    "4242 - 4242 - 4242 - 4242",
    "4242%2D4242%2D4242%2D4242",
    "4242%2E4242%5F4242%2B4242",
    "%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32",
    "%2534%2532%2534%2532%2534%2532%2534%2532%2534%2532%2534%2532%2534%2532%2534%2532",
    "4%32%34%32 4242_%34242.4242",
    "４２４２４２４２４２４２４２４２",
    "4-2-4-2-4-2-4-2-4-2-4-2-4-2-4-2",
    "9".repeat(40),
  ])("masks %s", (written) => {
    expect(maskLongNumbers(`see ${written} here`)).toBe("see [number] here");
  });

  it("leaves dates, times, ids and short numbers alone", () => {
    const text = '{"time":"2026-11-25T01:47:37.537Z","pid":7572,"id":"8642a0b1-0000-4000-8000-000000086420","n":"4242 4242","day":"2026-11-01","ms":12.5}';
    expect(maskLongNumbers(text)).toBe(text);
  });
});

describe("the logger", () => {
  it("masks card numbers in every line it writes: paths, queries, headers, bodies, error messages", async () => {
    let written = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const logger = createLogger("info", sink);
    logger.info({ url: "/nope/4242_4242_4242_4242?q=4242.4242.4242.4242" }, "request completed");
    logger.info({ headers: { "x-note": "%34%32%34%32%34%32%34%32%34%32%34%32%34%32%34%32" } }, "headers");
    logger.warn({ body: '{"note":"card 5555-5555-5555-4444 exp 11/29"}' }, "body");
    logger.error({ err: new Error("Invalid value 4000 0566 5566 5556 for field x") }, "failed");
    const lines = written.trim().split("\n");
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line).not.toMatch(/4242|5555|4000 0566|%34%32/);
      expect(line).toContain("[number]");
      expect(JSON.parse(line)).toMatchObject({ service: "raffle", time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    }
  });
});

describe("readableLines", () => {
  it("writes a line a person reads, masked like the JSON lines", async () => {
    let written = "";
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += String(chunk);
        done();
      },
    });
    const logger = createLogger("info", readableLines(sink));
    logger.info({ port: 3000, note: "card 4242 4242 4242 4242" }, "listening on http://localhost:3000");
    await expect.poll(() => written).toContain("\n");
    expect(written).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: listening on http:\/\/localhost:3000 \{"port":3000,"note":"card \[number\]"\}\n$/);
  });
});
