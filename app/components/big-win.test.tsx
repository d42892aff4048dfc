import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BigWinBanner } from "./big-win";
import type { Winner } from "./home-panels";

const win = (raffleId: string, amountCoins: number): Winner => ({
  raffleId,
  username: "Lucky",
  amount: `$${amountCoins / 100}`,
  amountCoins,
  timeAgo: "0s ago",
  entryAmount: "$1.00",
});

describe("the big-win banner", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("celebrates a new real win of $1,000 or more for 5 s, with 20 confetti pieces", () => {
    const { rerender } = render(<BigWinBanner winners={[win("old", 500_000)]} />);
    // Wins already there when the page loaded are not celebrated.
    expect(screen.queryByRole("status")).toBeNull();
    rerender(<BigWinBanner winners={[win("new", 100_000), win("old", 500_000)]} />);
    expect(screen.getByRole("status")).toHaveTextContent("Lucky won $1000");
    expect(screen.getAllByTestId("confetti")).toHaveLength(20);
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.queryByRole("status")).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("leaves out a demo crowd player's win: banners are for real wins only (PRODUCT.md, Honesty)", () => {
    const { rerender } = render(<BigWinBanner winners={[]} />);
    rerender(<BigWinBanner winners={[{ ...win("demo", 100_000), isDemo: true }]} />);
    expect(screen.queryByRole("status")).toBeNull();
    // A real win that comes after it is still celebrated.
    rerender(<BigWinBanner winners={[win("real", 100_000), { ...win("demo", 100_000), isDemo: true }]} />);
    expect(screen.getByRole("status")).toHaveTextContent("Lucky won $1000");
  });

  it("ignores smaller wins and closes with its button", () => {
    const { rerender } = render(<BigWinBanner winners={[]} />);
    rerender(<BigWinBanner winners={[win("small", 99_999)]} />);
    expect(screen.queryByRole("status")).toBeNull();
    rerender(<BigWinBanner winners={[win("big", 2_000_000), win("small", 99_999)]} />);
    act(() => screen.getByRole("button", { name: "Close" }).click());
    expect(screen.queryByRole("status")).toBeNull();
  });
});
