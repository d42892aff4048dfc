import { createRemixStub } from "@remix-run/testing";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { VipPage } from "./vip-page";

function renderPage(user: { vipTier: string; vipActive: boolean; vipExpiry: string | null }) {
  const Stub = createRemixStub([{ path: "/vip", Component: () => <VipPage user={user} claimedToday={false} /> }]);
  return render(<Stub initialEntries={["/vip"]} />);
}

describe("the VIP tier cards", () => {
  it("carry each tier's identity: its colours, icon and name", async () => {
    renderPage({ vipTier: "bronze", vipActive: false, vipExpiry: null });
    const cards = await screen.findAllByTestId("vip-card");
    expect(cards.map((card) => within(card).getByRole("heading").textContent)).toEqual(["BRONZE", "SILVER", "GOLD", "PLATINUM", "DIAMOND"]);
    expect(cards[2]).toHaveClass("t-gold");
    expect(screen.queryByText("Your tier")).toBeNull();
  });

  it("mark the player's own tier, and only while the membership is active", async () => {
    const { unmount } = renderPage({ vipTier: "gold", vipActive: true, vipExpiry: new Date(Date.now() + 86_400_000).toISOString() });
    const own = (await screen.findAllByTestId("vip-card")).filter((card) => card.dataset.own);
    expect(own).toHaveLength(1);
    expect(within(own[0]!).getByRole("heading")).toHaveTextContent("GOLD");
    expect(within(own[0]!).getByText("Your tier")).toBeVisible();
    unmount();
    renderPage({ vipTier: "gold", vipActive: false, vipExpiry: null });
    expect((await screen.findAllByTestId("vip-card")).filter((card) => card.dataset.own)).toHaveLength(0);
  });
});
