import { describe, expect, it } from "vitest";
import { fieldsFromAccountInfo, holdsCardData, validateWithdrawal } from "./withdrawal-rules";

const venmo = (amount: string) => ({ amount, method: "venmo", fields: { username: "lucky" } });

describe("withdrawal rules, in the spec's order", () => {
  it("checks the minimum first", () => {
    expect(validateWithdrawal({ amount: "9.99", method: "", fields: {} }, 0n)).toEqual({
      ok: false,
      problem: { title: "Minimum Withdrawal", description: "Minimum withdrawal amount is $10", field: "amount" },
    });
    expect(validateWithdrawal(venmo("abc"), 10_000n)).toMatchObject({ problem: { title: "Minimum Withdrawal" } });
  });

  it("then the balance", () => {
    expect(validateWithdrawal({ amount: "10.01", method: "", fields: {} }, 1000n)).toEqual({
      ok: false,
      problem: {
        title: "Insufficient Balance",
        description: "Only cash can be withdrawn: you can withdraw up to $10.00. Bonus coins are for play only.",
        field: "amount",
      },
    });
  });

  it("then the method and its fields, each problem naming the field it is about", () => {
    const missing = (field: string) => ({ ok: false, problem: { title: "Missing Information", description: "Please fill in all required fields", field } });
    expect(validateWithdrawal({ amount: "10", method: "", fields: {} }, 1000n)).toEqual(missing("method"));
    expect(validateWithdrawal({ amount: "10", method: "bank", fields: { routingNumber: "123456789" } }, 1000n)).toEqual(missing("bank.accountNumber"));
    expect(validateWithdrawal({ amount: "10", method: "bank", fields: { routingNumber: "1234567890", accountNumber: "1" } }, 1000n)).toEqual(
      missing("bank.routingNumber"),
    );
  });

  it("asks for no method when nothing goes to it, and ignores one sent", () => {
    const allToCards = () => 0n;
    expect(validateWithdrawal({ amount: "10", method: "", fields: {} }, 1000n, allToCards)).toEqual({
      ok: true,
      value: { amountCoins: 1000n, method: null, fields: {} },
    });
    expect(validateWithdrawal({ amount: "10", method: "paypal", fields: { username: "" } }, 1000n, allToCards)).toMatchObject({
      ok: true,
      value: { method: null },
    });
    expect(validateWithdrawal({ amount: "10", method: "", fields: {} }, 1000n, () => 1n)).toMatchObject({
      ok: false,
      problem: { title: "Missing Information" },
    });
  });

  it("accepts a complete request, in coins", () => {
    expect(validateWithdrawal(venmo("12.34"), 5000n)).toEqual({ ok: true, value: { amountCoins: 1234n, method: "venmo", fields: { username: "lucky" } } });
  });
});

describe("accountInfo", () => {
  it("reads the spec's formats and drops the CVV on arrival", () => {
    expect(fieldsFromAccountInfo("bank", "Routing: 011000015 | Account: 123456789")).toEqual({ routingNumber: "011000015", accountNumber: "123456789" });
    const card = fieldsFromAccountInfo("debit_card", "Card: 4242424242424242 | Exp: 12/29 | CVV: 123");
    expect(card).toEqual({ cardNumber: "4242424242424242", expiry: "12/29" });
    expect(JSON.stringify(card)).not.toContain('123"');
    expect(fieldsFromAccountInfo("paypal", " me@example.com ")).toEqual({ username: "me@example.com" });
  });
});

describe("holdsCardData", () => {
  it.each([
    "5555555555554444",
    "Card: 5555555555554444 | Exp: 11/29 | CVV: 654",
    "4242 4242 4242 4242",
    "4242_4242_4242_4242",
    "x378282246310005y",
    "CVV: 654",
    "cvc=1234",
    "my security code 123",
    "1234567890123456789012",
  ])("finds card data in %s", (text) => expect(holdsCardData(text)).toBe(true));
  it.each(["lucky-lou", "me@example.com", "424242424242", "Routing: 021000021", "john-1234", "cvv-fan", "12345"])("finds none in %s", (text) =>
    expect(holdsCardData(text)).toBe(false),
  );

  it("is refused for PayPal and Venmo, before the format checks", () => {
    for (const method of ["venmo", "paypal"]) {
      expect(validateWithdrawal({ amount: "10", method, fields: { username: "5555555555554444" } }, 5000n)).toMatchObject({
        ok: false,
        problem: { title: "Card Details Not Accepted" },
      });
    }
  });
});
