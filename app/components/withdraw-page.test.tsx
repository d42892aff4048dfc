import { createRemixStub } from "@remix-run/testing";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Toaster } from "./toaster";
import { WithdrawPage } from "./withdraw-page";

function renderPage(balance = 5000) {
  const Stub = createRemixStub([
    {
      path: "/withdraw",
      Component: () => (
        <Toaster flash={null}>
          <WithdrawPage balance={balance} bonus={0} backToCards="0.00" history={[]} />
        </Toaster>
      ),
    },
  ]);
  return render(<Stub initialEntries={["/withdraw"]} />);
}

describe("the withdraw form", () => {
  it("starts empty with the spec's amount limits, no method, and submit disabled", async () => {
    renderPage(5000);
    const amount = await screen.findByLabelText("Amount ($)");
    expect(amount).toHaveAttribute("step", "0.01");
    expect(amount).toHaveAttribute("min", "10");
    expect(amount).toHaveAttribute("max", "50.00");
    expect(amount).toHaveValue(null);
    expect(screen.getByLabelText("Method")).toHaveValue("");
    expect(screen.getByRole("button", { name: "Request Withdrawal" })).toBeDisabled();
    expect(screen.queryByLabelText(/cvv|cvc/i)).toBeNull();
  });

  it("shows only the chosen method's fields with their caps, clears them on a change, and enables submit when complete", async () => {
    renderPage();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Amount ($)"), "12");
    await user.selectOptions(screen.getByLabelText("Method"), "debit_card");
    expect(screen.getByLabelText("Card number")).toHaveAttribute("maxLength", "19");
    expect(screen.getByLabelText("Expiry (MM/YY)")).toHaveAttribute("maxLength", "5");
    expect(screen.queryByLabelText(/cvv|cvc/i)).toBeNull();
    await user.type(screen.getByLabelText("Card number"), "4242424242424242");
    await user.type(screen.getByLabelText("Expiry (MM/YY)"), "12/29");
    expect(screen.getByRole("button", { name: "Request Withdrawal" })).toBeEnabled();

    await user.selectOptions(screen.getByLabelText("Method"), "bank");
    expect(screen.queryByLabelText("Card number")).toBeNull();
    expect(screen.getByLabelText("Routing number")).toHaveValue("");
    expect(screen.getByLabelText("Routing number")).toHaveAttribute("maxLength", "9");
    expect(screen.getByRole("button", { name: "Request Withdrawal" })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText("Method"), "debit_card");
    expect(screen.getByLabelText("Card number")).toHaveValue("");
  });
});
