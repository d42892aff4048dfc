import { createRemixStub } from "@remix-run/testing";
import { useLoaderData, useRevalidator } from "@remix-run/react";
import { act, render, screen } from "@testing-library/react";
import { useEffect } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EntryAnswers, useTellEntry } from "./entry-answers";
import { DRAWN_EVENT, OutcomeSignals, type DrawnEvent } from "./outcome-signals";

/** The browser's Notification, recorded (jsdom has none): the permission is granted. */
let shown: string[] = [];
class RecordedNotification {
  static permission = "granted";
  constructor(title: string) {
    shown.push(title);
  }
}

beforeEach(() => {
  shown = [];
  Object.defineProperty(window, "Notification", { value: RecordedNotification, configurable: true, writable: true });
});
afterEach(() => {
  Reflect.deleteProperty(window, "Notification");
});

const user = { id: "u1", username: "me", coinBalance: 100, settings: { soundEffects: false, quickRaffleNotifications: true } };

/** The quick page: the player entered round q1 by its card, which told it (ADR 093). */
function QuickPage() {
  const tell = useTellEntry();
  const { reads } = useLoaderData<{ reads: number }>();
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    tell({
      entered: { raffleId: "q1", myTickets: 1 },
      balances: { coinBalance: 95, cashBalance: 0, bonusBalance: 95 },
      toast: { title: "Quick Entry!", description: "", variant: "success" },
    });
  }, [tell]);
  return (
    <>
      <OutcomeSignals />
      <p data-testid="reads">{state === "idle" ? reads : "loading"}</p>
      <button onClick={() => revalidate()}>Reload</button>
    </>
  );
}

function renderQuick() {
  let reads = 0;
  // The first read holds round q1, which the player entered; later reads, after its draw, a new round.
  const raffles = () => (reads === 0 ? [{ id: "q1", myTickets: 1 }] : [{ id: "q2", myTickets: 0 }]);
  const Stub = createRemixStub([
    {
      id: "root",
      path: "/",
      loader: () => ({ user, raffles: raffles(), reads: reads++ }),
      Component: function Root() {
        const root = useLoaderData<object>();
        return (
          <EntryAnswers root={root}>
            <QuickPage />
          </EntryAnswers>
        );
      },
    },
  ]);
  render(<Stub initialEntries={["/"]} />);
}

const drawn = (raffleId: string): DrawnEvent => ({ raffleId, kind: "quick", outcome: "completed", winner: "someone", prize: "0.50" });
const hear = (event: DrawnEvent) => act(() => void window.dispatchEvent(new CustomEvent(DRAWN_EVENT, { detail: event })));

describe("the signals of a round the player entered", () => {
  it("tell a round once, even when its draw is heard again after the page's data changed", async () => {
    renderQuick();
    await screen.findByTestId("reads");
    hear(drawn("q1"));
    expect(shown).toEqual(["Quick raffle drawn"]);

    // The page reloads after the draw; a stream opened again sends the draw once more (ADR 104).
    act(() => screen.getByRole("button", { name: "Reload" }).click());
    expect(await screen.findByText("1")).toBeInTheDocument();
    hear(drawn("q1"));
    expect(shown).toEqual(["Quick raffle drawn"]);
  });

  it("say nothing of a round the player did not enter", async () => {
    renderQuick();
    await screen.findByTestId("reads");
    hear(drawn("elsewhere"));
    expect(shown).toEqual([]);
  });
});
