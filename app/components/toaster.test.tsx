import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderToString } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import { TOAST_DURATION_MS, Toaster, useShowToast, type ToastMessage } from "./toaster";

const flash: ToastMessage = { id: "1", title: "Success!", description: "Successfully entered micro raffle!", type: "success" };

function ShowButton() {
  const show = useShowToast();
  return (
    <button type="button" onClick={() => show({ title: "Entry Failed", description: "Raffle is closed", type: "error" })}>
      show
    </button>
  );
}

describe("Toaster", () => {
  it("renders the flash toast as plain HTML on the server, for browsers without JavaScript", () => {
    const html = renderToString(<Toaster flash={flash}>page</Toaster>);
    expect(html).toContain("Success!");
    expect(html).toContain("Successfully entered micro raffle!");
    expect(html).toContain('role="status"');
  });

  it("shows the flash toast in the browser and closes it", async () => {
    render(<Toaster flash={flash}>page</Toaster>);
    expect(await screen.findByText("Successfully entered micro raffle!")).toBeInTheDocument();
    await userEvent.click(screen.getByRole("button", { name: "Close" }));
    await act(async () => {});
    expect(screen.queryByText("Successfully entered micro raffle!")).not.toBeInTheDocument();
  });

  it("keeps at most one toast on screen: a new one replaces the old", async () => {
    render(
      <Toaster flash={flash}>
        <ShowButton />
      </Toaster>,
    );
    await screen.findByText("Success!");
    await userEvent.click(screen.getByRole("button", { name: "show" }));
    expect(await screen.findByText("Raffle is closed")).toBeInTheDocument();
    expect(screen.queryByText("Success!")).not.toBeInTheDocument();
    expect(screen.getAllByTestId("toast")).toHaveLength(1);
  });

  it("closes itself after the spec's 5 s, unless a browser test made it last (window.__toastDurationMs)", async () => {
    vi.useFakeTimers();
    try {
      const first = render(<Toaster flash={flash}>page</Toaster>);
      await act(async () => {});
      expect(screen.getByText("Success!")).toBeInTheDocument();
      await act(async () => vi.advanceTimersByTime(TOAST_DURATION_MS + 100));
      expect(screen.queryByText("Success!")).not.toBeInTheDocument();
      first.unmount();

      window.__toastDurationMs = Infinity;
      render(<Toaster flash={flash}>page</Toaster>);
      await act(async () => vi.advanceTimersByTime(10 * TOAST_DURATION_MS));
      expect(screen.getByText("Success!")).toBeInTheDocument();
    } finally {
      delete window.__toastDurationMs;
      vi.useRealTimers();
    }
  });
});
