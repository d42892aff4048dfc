import { readFileSync } from "node:fs";
import { decode } from "turbo-stream";

/**
 * The data the app's loaders returned for one signed-in player (its single-fetch answer
 * for `/`, saved by the bench in REFERENCE_DATA_FILE), decoded once: the reference's
 * loaders return it as constants.
 */
async function load(): Promise<Record<string, { data?: unknown }>> {
  const bytes = readFileSync(process.env.REFERENCE_DATA_FILE!);
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes));
      controller.close();
    },
  });
  const decoded = await decode(stream);
  await decoded.done;
  return decoded.value as Record<string, { data?: unknown }>;
}

const constants = load();

export async function constantData(routeId: string): Promise<unknown> {
  const data = (await constants)[routeId]?.data;
  if (data === undefined) throw new Error(`no saved data for ${routeId}`);
  return data;
}
