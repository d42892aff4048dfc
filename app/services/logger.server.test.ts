import { describe, expect, it } from "vitest";
import { loggableUrl } from "./logger.server";

describe("loggableUrl", () => {
  it("keeps ordinary paths and parameters readable", () => {
    expect(loggableUrl("/checkout?package=package_2")).toBe("/checkout?package=package_2");
    expect(loggableUrl("/fair/6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b")).toBe("/fair/6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b");
    expect(loggableUrl("/history?type=entries&from=2026-11-01")).toBe("/history?type=entries&from=2026-11-01");
  });

  it("hides card-like numbers anywhere, and the values of card and account parameters", () => {
    expect(loggableUrl("/withdraw?card=4000056655665556&cvv=8642")).toBe("/withdraw?card=[redacted]&cvv=[redacted]");
    expect(loggableUrl("/x?note=4242+4242+4242+4242&n=4242%204242%204242%204242")).toBe("/x?note=[number]&n=[number]");
    expect(loggableUrl("/pay/4000-0566-5566-5556/now")).toBe("/pay/[number]/now");
    expect(loggableUrl("/w?debit_card.cardNumber=1&routingNumber=021000021&x%43vc=1")).toBe("/w?debit_card.cardNumber=[redacted]&routingNumber=[redacted]&x%43vc=[redacted]");
  });
});
