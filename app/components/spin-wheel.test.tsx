import { createRemixStub } from "@remix-run/testing";
import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { SpinWheel, wheelLabel, wheelState, type WheelData } from "./spin-wheel";
import { prizeUnderPointer, rotationOf } from "~/shared/spin-wheel";

describe("the spin wheel's states", () => {
  it("is ready only when it can spin and nothing is pending", () => {
    expect(wheelState({ canSpin: true, spinning: false, pending: false })).toBe("ready");
    expect(wheelState({ canSpin: true, spinning: true, pending: false })).toBe("spinning");
    expect(wheelState({ canSpin: true, spinning: false, pending: true })).toBe("processing");
    expect(wheelState({ canSpin: false, spinning: false, pending: false })).toBe("waiting");
  });

  it("labels each state as the spec says, counting down HH:MM:SS while waiting", () => {
    expect(wheelLabel("ready", 0)).toBe("SPIN");
    expect(wheelLabel("spinning", 0)).toBe("SPINNING...");
    expect(wheelLabel("processing", 0)).toBe("PROCESSING...");
    // The countdown says what it counts down to.
    expect(wheelLabel("waiting", 3725)).toBe("Next spin in 01:02:05");
    expect(wheelLabel("waiting", 0)).toBe("Available now!");
  });
});

describe("the spin wheel", () => {
  const PRIZES = [5, 10, 25, 50];
  const renderWheel = (props: Omit<WheelData, "prizes" | "lastReward"> & { now: number; lastReward?: number }) => {
    const Stub = createRemixStub([{ path: "/", Component: () => <SpinWheel lastReward={null} prizes={PRIZES} {...props} /> }]);
    return render(<Stub initialEntries={["/"]} />);
  };

  it("has a pointer that marks the prize won", async () => {
    renderWheel({ canSpin: true, nextSpinTime: "2026-11-25T00:00:00.000Z", now: Date.parse("2026-11-25T00:00:00.000Z") });
    expect(await screen.findByRole("button", { name: "SPIN" })).toBeEnabled();
    expect(screen.getByTestId("wheel-pointer")).toBeInTheDocument();
  });

  it("labels its countdown while waiting", async () => {
    renderWheel({ canSpin: false, nextSpinTime: "2026-11-25T01:02:05.000Z", now: Date.parse("2026-11-25T00:00:00.000Z") });
    expect(await screen.findByRole("button", { name: "Next spin in 01:02:05" })).toBeDisabled();
  });

  it.each(PRIZES)("rests on the last reward won, %i, and says so", async (prize) => {
    renderWheel({ canSpin: false, lastReward: prize, nextSpinTime: "2026-11-25T01:02:05.000Z", now: Date.parse("2026-11-25T00:00:00.000Z") });
    expect(await screen.findByTestId("wheel-result")).toHaveTextContent(`Last spin: ${prize} coins`);
    expect(prizeUnderPointer(PRIZES, rotationOf(screen.getByTestId("wheel-disc").style.transform))).toBe(prize);
  });
});
