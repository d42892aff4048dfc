import { describe, expect, it } from "vitest";
import { readInBackground } from "./metrics.server";

/** Lets the reads' promises run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/** A read the test settles by hand, and how many times it was asked for. */
function controlledRead() {
  const pending: { resolve: (value: number) => void; reject: (error: Error) => void }[] = [];
  const read = () => new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
  return { read, pending };
}

describe("readInBackground", () => {
  it("answers at once with the last value while a read is under way, one read at a time", async () => {
    let now = 1_000;
    const { read, pending } = controlledRead();
    const figure = readInBackground(
      60_000,
      read,
      () => {},
      () => now,
    );

    expect(figure.latest()).toBeUndefined();
    expect(figure.latest()).toBeUndefined();
    await settled();
    expect(pending).toHaveLength(1);
    now += 250;
    pending[0]!.resolve(7);
    await settled();
    expect(figure.latest()).toEqual({ value: 7, at: 1_250, seconds: 0.25 });

    // Stale: the next read sets out, and until it ends, even long past `every`, the last value stands.
    now += 60_000;
    expect(figure.latest()?.value).toBe(7);
    await settled();
    expect(pending).toHaveLength(2);
    now += 600_000;
    expect(figure.latest()?.value).toBe(7);
    expect(pending).toHaveLength(2);
    pending[1]!.resolve(8);
    await settled();
    expect(figure.latest()?.value).toBe(8);
  });

  it("keeps the last value when a read fails, reports the failure and tries again after `every`", async () => {
    let now = 0;
    const errors: unknown[] = [];
    const { read, pending } = controlledRead();
    const figure = readInBackground(
      15_000,
      read,
      (error) => errors.push(error),
      () => now,
    );

    figure.latest();
    await settled();
    pending[0]!.resolve(3);
    await settled();
    now += 15_000;
    figure.latest();
    await settled();
    pending[1]!.reject(new Error("connection lost"));
    await settled();
    expect(errors).toEqual([new Error("connection lost")]);
    expect(figure.latest()).toEqual({ value: 3, at: 0, seconds: 0 });
    expect(pending).toHaveLength(2);

    now += 15_000;
    expect(figure.latest()?.value).toBe(3);
    await settled();
    expect(pending).toHaveLength(3);
  });

  it("goes on after a read that throws before it returns a promise", async () => {
    let calls = 0;
    const errors: unknown[] = [];
    const read = () => {
      calls += 1;
      if (calls === 1) throw new Error("no pool yet");
      return Promise.resolve(calls);
    };
    let now = 0;
    const figure = readInBackground(
      1_000,
      read,
      (error) => errors.push(error),
      () => now,
    );
    figure.latest();
    await settled();
    expect(errors).toEqual([new Error("no pool yet")]);
    now += 1_000;
    figure.latest();
    await settled();
    expect(figure.latest()?.value).toBe(2);
  });
});
